#ifndef CARDSCAN_CSECCOMP_H
#define CARDSCAN_CSECCOMP_H

/// Results of cs_lockdown_engage.
enum {
    CS_LOCKDOWN_ACTIVE = 0,        ///< the filter is installed for every thread of the process
    CS_LOCKDOWN_UNSUPPORTED = 1,   ///< not Linux, or an architecture the filter does not know
    CS_LOCKDOWN_FAILED = 2,        ///< the kernel refused (errno in *error)
};

/// Installs a seccomp filter under which creating any socket other than AF_UNIX (and setting up
/// io_uring, which can create sockets too) fails with EACCES, for the whole process and every
/// thread and child it starts. Sets no_new_privs first. Irreversible.
int cs_lockdown_engage(int *error);

/// 1 when this process runs under a seccomp filter (Seccomp: 2 in /proc/self/status).
int cs_lockdown_filter_present(void);

/// Tries socket(domain, type, 0); returns 0 when it succeeded (the socket is closed again), else errno.
int cs_lockdown_try_socket(int domain, int type);

/// Tries socket(domain, type, 0) through the x32 ABI (x86_64's numbering with bit 30 set): 0 when
/// it created a socket, else errno (EACCES under the lockdown; ENOSYS on a kernel without x32).
/// -1 where there is no x32 ABI (not x86_64 Linux).
int cs_lockdown_try_socket_x32(int domain, int type);

/// 1 where the x32 ABI shares the process's architecture (x86_64 Linux), else 0.
int cs_lockdown_has_x32(void);

#endif
