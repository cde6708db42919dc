#ifndef STRATA_CSHIMS_H
#define STRATA_CSHIMS_H

/// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING (hidden from Swift's Glibc
/// without _GNU_SOURCE). Returns -1 and sets errno on failure.
int strata_memfd_create(const char *name);

/// Seals a memfd against shrinking and further sealing, so the compositor can map
/// it safely. Returns 0, or -1 with errno.
int strata_memfd_seal(int fd);



#include <spawn.h>
/// posix_spawn_file_actions_addchdir_np (glibc ≥ 2.29, hidden without _GNU_SOURCE).
int strata_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
#endif
