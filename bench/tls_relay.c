/* tls_relay: the TLS-terminating byte relay for scripts/bench-serve (the baseline of the
 * daemon's TLS round trip: `fenguard connect tls://` + `fenguard serve` against TLS
 * terminated on both ends around the same engine, and nothing else).
 *
 *   tls_relay listen PORT CERT KEY ENGINE [ARGS...]   on 127.0.0.1:PORT; each connection
 *                                                     forks, does the TLS handshake, spawns
 *                                                     ENGINE with pipes and copies bytes both
 *                                                     ways (TLS socket <-> engine)
 *   tls_relay connect PORT                            copies stdin -> TLS to 127.0.0.1:PORT ->
 *                                                     stdout (the client side, as `fenguard
 *                                                     connect`; the certificate is not checked)
 *
 * OpenSSL, TCP_NODELAY, one thread a side polling both ends (an SSL object is not shared by
 * threads), no parsing. Build: gcc -O2 -o tls_relay tls_relay.c -lssl -lcrypto
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

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

static void wait_for(int fd, short events) {
    struct pollfd p = { fd, events, 0 };
    while (poll(&p, 1, -1) < 0 && errno == EINTR) {}
}

/* Retries SSL_write on a non-blocking socket until all of buf is taken. */
static int ssl_write_all(SSL *ssl, int sock, const char *buf, int len) {
    while (len > 0) {
        int n = SSL_write(ssl, buf, len);
        if (n > 0) { buf += n; len -= n; continue; }
        int e = SSL_get_error(ssl, n);
        if (e == SSL_ERROR_WANT_WRITE) wait_for(sock, POLLOUT);
        else if (e == SSL_ERROR_WANT_READ) wait_for(sock, POLLIN);
        else return -1;
    }
    return 0;
}

/* Copies TLS plaintext from sock to out_fd and in_fd's bytes into TLS, until both ends are
 * done (the server side: until the engine's output ends). */
static void relay(SSL *ssl, int sock, int in_fd, int out_fd, int server) {
    fcntl(sock, F_SETFL, fcntl(sock, F_GETFL) | O_NONBLOCK);
    char buf[1 << 16];
    int in_open = 1, net_open = 1;
    while (in_open || (net_open && !server)) {
        while (net_open) {
            int n = SSL_read(ssl, buf, sizeof buf);
            if (n > 0) {
                if (write_all(out_fd, buf, n) < 0) net_open = 0;
                continue;
            }
            int e = SSL_get_error(ssl, n);
            if (e == SSL_ERROR_WANT_READ) break;
            if (e == SSL_ERROR_WANT_WRITE) { wait_for(sock, POLLOUT); continue; }
            net_open = 0;
            if (server) close(out_fd); /* the engine's input ends with the client's */
        }
        if (!in_open && !net_open) break;
        struct pollfd p[2] = { { sock, net_open ? POLLIN : 0, 0 }, { in_fd, in_open ? POLLIN : 0, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (in_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(in_fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                in_open = 0;
                SSL_shutdown(ssl);
                shutdown(sock, SHUT_WR);
            } else if (ssl_write_all(ssl, sock, buf, (int)n) < 0) {
                break;
            }
        }
    }
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

static void serve_one(SSL_CTX *ctx, int sock, char **engine) {
    SSL *ssl = SSL_new(ctx);
    SSL_set_fd(ssl, sock);
    if (SSL_accept(ssl) != 1) exit(1);
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
    relay(ssl, sock, out[0], in[1], 1);
    int status;
    waitpid(pid, &status, 0);
    exit(0);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int one = 1;
    if (argc >= 6 && strcmp(argv[1], "listen") == 0) {
        SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
        if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, argv[3]) != 1
            || SSL_CTX_use_PrivateKey_file(ctx, argv[4], SSL_FILETYPE_PEM) != 1) {
            ERR_print_errors_fp(stderr);
            return 2;
        }
        signal(SIGCHLD, SIG_IGN);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in a = loopback(atoi(argv[2]));
        if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64)) { perror("listen"); return 2; }
        for (;;) {
            int c = accept(fd, NULL, NULL);
            if (c < 0) continue;
            setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (fork() == 0) { close(fd); serve_one(ctx, c, argv + 5); }
            close(c);
        }
    }
    if (argc == 3 && strcmp(argv[1], "connect") == 0) {
        SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = loopback(atoi(argv[2]));
        if (!ctx || connect(fd, (struct sockaddr *)&a, sizeof a)) { perror("connect"); return 2; }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        SSL *ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        if (SSL_connect(ssl) != 1) { ERR_print_errors_fp(stderr); return 2; }
        relay(ssl, fd, 0, 1, 0);
        return 0;
    }
    fprintf(stderr, "usage: tls_relay listen PORT CERT KEY ENGINE [ARGS...] | tls_relay connect PORT\n");
    return 2;
}
