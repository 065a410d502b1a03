/* tcp_relay: the plain TCP byte relay for scripts/bench-serve (SPEC section 9: the daemon's
 * round trip against "a plain TCP byte relay around the same engine").
 *
 *   tcp_relay listen PORT ENGINE [ARGS...]   on 127.0.0.1:PORT; each connection forks, spawns
 *                                            ENGINE with pipes and copies bytes both ways
 *                                            with two threads (socket <-> engine)
 *   tcp_relay connect PORT                   copies stdin -> 127.0.0.1:PORT -> stdout with two
 *                                            threads (the client side, as `fenguard connect`)
 *
 * read/write, TCP_NODELAY, no parsing. Build: gcc -O2 -pthread -o tcp_relay tcp_relay.c
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct pair { int from, to; int shut; };

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
    struct pair *p = arg;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(p->from, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || write_all(p->to, buf, n) < 0) break;
    }
    if (p->shut) shutdown(p->to, SHUT_WR); else close(p->to);
    return NULL;
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

static void serve_one(int sock, char **engine) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]); close(out[0]); close(sock);
        execvp(engine[0], engine);
        _exit(127);
    }
    close(in[0]); close(out[1]);
    struct pair up = { sock, in[1], 0 }, down = { out[0], sock, 1 };
    pthread_t t;
    pthread_create(&t, NULL, copy, &up);
    copy(&down);
    int status;
    waitpid(pid, &status, 0);
    exit(0);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 4 && strcmp(argv[1], "listen") == 0) {
        signal(SIGCHLD, SIG_IGN);
        int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in a = loopback(atoi(argv[2]));
        if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64)) { perror("listen"); return 2; }
        for (;;) {
            int c = accept(fd, NULL, NULL);
            if (c < 0) continue;
            setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (fork() == 0) { close(fd); serve_one(c, argv + 3); }
            close(c);
        }
    }
    if (argc == 3 && strcmp(argv[1], "connect") == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        struct sockaddr_in a = loopback(atoi(argv[2]));
        if (connect(fd, (struct sockaddr *)&a, sizeof a)) { perror("connect"); return 2; }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct pair up = { 0, fd, 1 }, down = { fd, 1, 0 };
        pthread_t t;
        pthread_create(&t, NULL, copy, &up);
        copy(&down);
        return 0;
    }
    fprintf(stderr, "usage: tcp_relay listen PORT ENGINE [ARGS...] | tcp_relay connect PORT\n");
    return 2;
}
