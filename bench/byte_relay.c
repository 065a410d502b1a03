/* byte_relay: the floor for scripts/bench-relay (SPEC section 9): spawns the engine and
 * copies bytes with two threads, stdin -> engine and engine -> stdout, with read/write and
 * no parsing. Ends when the engine closes its stdout; exits with the engine's status.
 *
 * Usage: byte_relay ENGINE [ARGS...]   Build: gcc -O2 -pthread -o byte_relay byte_relay.c
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

struct pipe_pair { int from, to; };

static int write_all(int fd, const char *buf, ssize_t len) {
    while (len > 0) {
        ssize_t n = write(fd, buf, (size_t)len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        buf += n;
        len -= n;
    }
    return 0;
}

static void *copy(void *arg) {
    struct pipe_pair *p = arg;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(p->from, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || write_all(p->to, buf, n) < 0) break;
    }
    close(p->to);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: byte_relay ENGINE [ARGS...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int to_child[2], from_child[2];
    if (pipe(to_child) < 0 || pipe(from_child) < 0) {
        perror("byte_relay: pipe");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("byte_relay: fork");
        return 2;
    }
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]); close(to_child[1]); close(from_child[0]); close(from_child[1]);
        execvp(argv[1], argv + 1);
        perror("byte_relay: exec");
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    struct pipe_pair up = {0, to_child[1]}, down = {from_child[0], 1};
    pthread_t t_up, t_down;
    pthread_create(&t_up, NULL, copy, &up);
    pthread_create(&t_down, NULL, copy, &down);
    pthread_join(t_down, NULL); /* the engine closed its stdout */
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
