#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <spawn.h>
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <unistd.h>
#include <string.h>
#include <sys/socket.h>
#include "CShims.h"

int strata_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int strata_memfd_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

int strata_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int strata_main_queue_fd(void) {
    int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "_dispatch_get_main_queue_handle_4CF");
    if (!get) return -2;
    return get();
}

void strata_main_queue_drain(void) {
    static void (*drain)(void *) = NULL;
    if (!drain) drain = (void (*)(void *))dlsym(RTLD_DEFAULT, "_dispatch_main_queue_callback_4CF");
    if (drain) drain(NULL);
}

int strata_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

ssize_t strata_receive_with_fds(int socket, void *buffer, size_t length, int *fds, int capacity, int *count) {
    char control[CMSG_SPACE(sizeof(int) * 64)];
    struct iovec io = { .iov_base = buffer, .iov_len = length };
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    ssize_t n;
    do { n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    *count = 0;
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int passed = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < passed; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (*count < capacity) fds[(*count)++] = fd; else close(fd);
        }
    }
    return n;
}

ssize_t strata_send_with_fds(int socket, const void *buffer, size_t length, const int *fds, int count) {
    char control[CMSG_SPACE(sizeof(int) * 28)];
    struct iovec io = { .iov_base = (void *)buffer, .iov_len = length };
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1 };
    if (count > 28) { errno = EINVAL; return -1; }
    if (count > 0) {
        memset(control, 0, sizeof control);
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *c = CMSG_FIRSTHDR(&message);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * count);
    }
    ssize_t n;
    do { n = sendmsg(socket, &message, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}
