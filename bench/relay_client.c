/* relay_client: the measuring client of scripts/bench-relay (SPEC section 9).
 *
 * Starts COMMAND (an engine, or a relay around one) with pipes, does `uci`/`uciok`, then
 * measures, with CLOCK_MONOTONIC:
 *   isready   N round trips `isready` -> `readyok`: median and p99 (microseconds);
 *   position  N round trips `position fen FEN moves M...` + `isready` -> `readyok`;
 *   position_fresh  the same, every line differing from the one before (its fullmove number);
 *   burst     R runs of `position startpos` (or -B LINE) + `go` -> `bestmove`, counting the
 *             `info` lines in between: median (milliseconds);
 * and the CPU time the started process itself used for each burst (burst_cpu_ms, from
 * /proc/PID/stat: steadier than wall time on a loaded machine);
 * then reads VmHWM (peak RSS, KiB) of the started process from /proc; with -L MIB, then
 * sends a line of MIB MiB with no end until the last byte, then `isready`, and reads VmHWM
 * again (SPEC 9: a line with no end must not grow memory past a fixed cap); then `quit`.
 * Prints one `key value` pair a line, for the script to parse.
 *
 * Usage: relay_client [-i N] [-p N] [-b RUNS] [-L MIB] [-f FEN] [-m MOVES] [-B LINE]
 *                     -- COMMAND [ARGS...]
 * Build: gcc -O2 -o relay_client relay_client.c
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int to_fd, from_fd;
static char rbuf[1 << 17];
static size_t rstart, rend;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what) {
    fprintf(stderr, "relay_client: %s\n", what);
    exit(2);
}

static void send_text(const char *text) {
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = write(to_fd, text, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) die("write to the command failed");
        text += n;
        len -= (size_t)n;
    }
}

/* Reads lines until one starts with `prefix`; returns how many lines started with `count`. */
static long read_until(const char *prefix, const char *count) {
    size_t plen = strlen(prefix), clen = count ? strlen(count) : 0;
    long counted = 0;
    for (;;) {
        char *nl;
        while ((nl = memchr(rbuf + rstart, '\n', rend - rstart)) != NULL) {
            char *line = rbuf + rstart;
            size_t len = (size_t)(nl - line);
            rstart += len + 1;
            if (len >= plen && memcmp(line, prefix, plen) == 0) return counted;
            if (clen && len >= clen && memcmp(line, count, clen) == 0) counted++;
        }
        if (rstart > 0) {
            memmove(rbuf, rbuf + rstart, rend - rstart);
            rend -= rstart;
            rstart = 0;
        }
        if (rend == sizeof rbuf) die("line longer than the read buffer");
        ssize_t n = read(from_fd, rbuf + rend, sizeof rbuf - rend);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fprintf(stderr, "relay_client: end of output while waiting for `%s`\n", prefix);
            exit(2);
        }
        rend += (size_t)n;
    }
}

/* CPU time (user + system, milliseconds) the process `pid` itself has used so far (its
 * children excluded), from /proc/PID/stat; -1 when unreadable. */
static double cpu_ms(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    unsigned long utime = 0, stime = 0;
    /* after ") ": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return -1;
    return (utime + stime) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n, double scale) {
    double sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int p99 = (int)(0.99 * n + 0.999999) - 1;
    printf("%s_median %.3f\n%s_p99 %.3f\n%s_mean %.3f\n%s_p10 %.3f\n%s_p90 %.3f\n%s_n %d\n",
           name, v[n / 2] / scale, name, v[p99 < 0 ? 0 : p99] / scale, name, sum / n / scale,
           name, v[n / 10] / scale, name, v[n * 9 / 10] / scale, name, n);
}

static long vm_hwm_kib(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

int main(int argc, char **argv) {
    int n_isready = 2000, n_position = 500, n_burst = 3, long_mib = 0, opt;
    const char *fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    const char *moves = "e1g1 f6e4 f1e1 d7d5 c4d5 d8d5 b1c3 d5a5 c3e4 c8e6 e4g5 e8c8 g5e6 "
                        "f7e6 e1e5 f8d6 e5e6 h8f8";
    const char *burst_position = "position startpos";
    while ((opt = getopt(argc, argv, "i:p:b:L:f:m:B:")) != -1) {
        switch (opt) {
        case 'i': n_isready = atoi(optarg); break;
        case 'p': n_position = atoi(optarg); break;
        case 'b': n_burst = atoi(optarg); break;
        case 'L': long_mib = atoi(optarg); break;
        case 'f': fen = optarg; break;
        case 'm': moves = optarg; break;
        case 'B': burst_position = optarg; break;
        default: die("usage: relay_client [-i N] [-p N] [-b RUNS] [-L MIB] [-f FEN] [-m MOVES] [-B LINE] -- CMD...");
        }
    }
    if (optind >= argc) die("no command given");
    signal(SIGPIPE, SIG_IGN);
    int to_child[2], from_child[2];
    if (pipe(to_child) < 0 || pipe(from_child) < 0) die("pipe failed");
    pid_t pid = fork();
    if (pid < 0) die("fork failed");
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]); close(to_child[1]); close(from_child[0]); close(from_child[1]);
        execvp(argv[optind], argv + optind);
        perror("relay_client: exec");
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    to_fd = to_child[1];
    from_fd = from_child[0];

    double t0 = now_us();
    send_text("uci\n");
    read_until("uciok", NULL);
    send_text("isready\n");
    read_until("readyok", NULL);
    printf("startup_ms %.3f\n", (now_us() - t0) / 1e3);

    int most = n_isready > n_position ? n_isready : n_position;
    most = most > n_burst ? most : n_burst;
    double *v = malloc(sizeof(double) * (size_t)(most > 0 ? most : 1));
    if (!v) die("out of memory");
    for (int i = 0; i < n_isready; i++) {
        double t = now_us();
        send_text("isready\n");
        read_until("readyok", NULL);
        v[i] = now_us() - t;
    }
    if (n_isready > 0) report("isready_us", v, n_isready, 1.0);

    size_t cap = strlen(fen) + strlen(moves) + 64;
    char *cmd = malloc(cap);
    if (!cmd) die("out of memory");
    snprintf(cmd, cap, "position fen %s moves %s\nisready\n", fen, moves);
    for (int i = 0; i < n_position; i++) {
        double t = now_us();
        send_text(cmd);
        read_until("readyok", NULL);
        v[i] = now_us() - t;
    }
    if (n_position > 0) report("position_us", v, n_position, 1.0);

    /* position_fresh: the same, but every line differs from the one before (the FEN's last
     * field alternates between its value and that value + 1), so a relay that remembers the
     * last line (fenguard continues a resent game) checks each line in full. */
    const char *last_field = strrchr(fen, ' ');
    int fullmove = last_field ? atoi(last_field + 1) : 1;
    int head = last_field ? (int)(last_field - fen) : (int)strlen(fen);
    char *cmd2 = malloc(cap + 16);
    if (!cmd2) die("out of memory");
    snprintf(cmd2, cap + 16, "position fen %.*s %d moves %s\nisready\n", head, fen, fullmove + 1,
             moves);
    for (int i = 0; i < n_position; i++) {
        double t = now_us();
        send_text(i % 2 ? cmd2 : cmd);
        read_until("readyok", NULL);
        v[i] = now_us() - t;
    }
    if (n_position > 0) report("position_fresh_us", v, n_position, 1.0);

    long lines = 0;
    double *cpu = malloc(sizeof(double) * (size_t)(n_burst > 0 ? n_burst : 1));
    if (!cpu) die("out of memory");
    for (int i = 0; i < n_burst; i++) {
        send_text(burst_position);
        send_text("\nisready\n");
        read_until("readyok", NULL);
        double t = now_us(), c = cpu_ms(pid);
        send_text("go depth 40\n");
        lines = read_until("bestmove", "info ");
        v[i] = now_us() - t;
        cpu[i] = cpu_ms(pid) - c;
    }
    if (n_burst > 0) {
        report("burst_ms", v, n_burst, 1e3);
        report("burst_cpu_ms", cpu, n_burst, 1.0);
        printf("burst_lines %ld\n", lines);
    }
    printf("peak_rss_kib %ld\n", vm_hwm_kib(pid));
    if (long_mib > 0) {
        static char junk[1 << 20];
        memset(junk, 'x', sizeof junk);
        junk[sizeof junk - 1] = '\0';
        for (int i = 0; i < long_mib; i++) send_text(junk);
        send_text("\nisready\n");
        read_until("readyok", NULL);
        printf("long_line_mib %d\nlong_line_peak_rss_kib %ld\n", long_mib, vm_hwm_kib(pid));
    }

    send_text("quit\n");
    close(to_fd);
    for (int waited = 0; waited < 300; waited++) { /* up to 3 s, then kill */
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            printf("exit_status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            return 0;
        }
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    printf("exit_status killed\n");
    return 0;
}
