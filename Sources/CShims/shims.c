#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <spawn.h>
#include <dlfcn.h>
#include <stddef.h>
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
