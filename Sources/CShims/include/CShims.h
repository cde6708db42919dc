#ifndef STRATA_CSHIMS_H
#define STRATA_CSHIMS_H

/// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING (hidden from Swift's Glibc
/// without _GNU_SOURCE). Returns -1 and sets errno on failure.
int strata_memfd_create(const char *name);

/// eventfd(2), non-blocking and close-on-exec (not in Swift's Glibc module).
int strata_eventfd(void);

/// Seals a memfd against shrinking and further sealing, so the compositor can map
/// it safely. Returns 0, or -1 with errno.
int strata_memfd_seal(int fd);



#include <spawn.h>
/// posix_spawn_file_actions_addchdir_np (glibc ≥ 2.29, hidden without _GNU_SOURCE).
int strata_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// The file descriptor that becomes readable when the main dispatch queue has
/// work (libdispatch's run-loop integration, as CoreFoundation uses it), or -1.
int strata_main_queue_fd(void);

/// Runs the work queued on the main dispatch queue (main actor jobs included).
/// Call on the main thread, after strata_main_queue_fd() became readable.
void strata_main_queue_drain(void);

#include <stddef.h>
#include <sys/types.h>
/// recvmsg(2) of up to `length` bytes and the file descriptors passed with them
/// (SCM_RIGHTS, made close-on-exec), at most `capacity`; `*count` is how many
/// came. Returns the bytes read (0 at the end), or -1 with errno.
ssize_t strata_receive_with_fds(int socket, void *buffer, size_t length, int *fds, int capacity, int *count);

/// sendmsg(2) of `length` bytes with `count` file descriptors (SCM_RIGHTS, at
/// most 28 as libwayland takes), retried on EINTR. Returns the bytes sent, or -1 with errno.
ssize_t strata_send_with_fds(int socket, const void *buffer, size_t length, const int *fds, int count);
#endif
