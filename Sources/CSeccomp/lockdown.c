// The no-network guarantee: a seccomp-BPF filter that refuses every socket but AF_UNIX.
#include "cseccomp.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#if defined(__linux__)
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define CS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CS_ARCH AUDIT_ARCH_AARCH64
#endif

/* The x32 ABI's system calls: x86_64's numbering with this bit set (__X32_SYSCALL_BIT). */
#define CS_X32_SYSCALL_BIT 0x40000000

#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC 1
#endif

#include <dirent.h>

/* The number of threads of this process (entries of /proc/self/task); -1 when unknown. */
static int cs_thread_count(void) {
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(dir);
    return count;
}

#ifdef CS_ARCH
/// Installs `program` for every thread of the process (no_new_privs first, as seccomp requires).
static int cs_install_filter(const struct sock_fprog *program, int *error) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        if (error) *error = errno;
        return CS_LOCKDOWN_FAILED;
    }
    // TSYNC: every thread already running gets the filter too; threads started later inherit it.
    long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, program);
    if (rc != 0) {
        // Without TSYNC a filter covers the calling thread only (and the threads it starts
        // later): enough only while this is the process's one thread. Otherwise it is a failure.
        if (rc > 0 || cs_thread_count() != 1) {
            if (error) *error = rc > 0 ? EBUSY : (errno ? errno : ENOSYS);
            return CS_LOCKDOWN_FAILED;
        }
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, program, 0, 0) != 0) {
            if (error) *error = errno;
            return CS_LOCKDOWN_FAILED;
        }
    }
    return CS_LOCKDOWN_ACTIVE;
}
#endif

int cs_lockdown_engage(int *error) {
#ifndef CS_ARCH
    (void)error;
    return CS_LOCKDOWN_UNSUPPORTED;
#else
    struct sock_filter filter[] = {
        /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        // Only this architecture's system call numbers are known (no i386 socketcall way round).
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CS_ARCH, 1, 0),
        /* 2 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
        /* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // x32 system calls carry AUDIT_ARCH_X86_64 too, numbered with bit 30 set (socket is
        // 0x40000029), so a comparison with 41 alone would let them by. Every one is refused.
        /* - */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CS_X32_SYSCALL_BIT, 0, 1),
        /* - */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
#endif
        /* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 3, 0),           // -> 8
        /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketpair, 2, 0),       // -> 8
        // io_uring can open sockets without the socket system call.
        /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 4, 0),   // -> 11
        /* 7 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        // socket(domain, ...), socketpair(domain, ...): AF_UNIX only.
        /* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),               // -> 10 / 11
        /* 10 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* 11 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
    };
    struct sock_fprog program = {
        .len = (unsigned short)(sizeof filter / sizeof filter[0]),
        .filter = filter,
    };
    return cs_install_filter(&program, error);
#endif
}

int cs_lockdown_filter_present(void) {
    FILE *f = fopen("/proc/self/status", "re");
    if (!f) return 0;
    char line[256];
    int present = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Seccomp:", 8) == 0) {
            present = strstr(line + 8, "2") != NULL;
            break;
        }
    }
    fclose(f);
    return present;
}

#else
int cs_lockdown_engage(int *error) { (void)error; return CS_LOCKDOWN_UNSUPPORTED; }
int cs_lockdown_filter_present(void) { return 0; }
#endif

int cs_lockdown_try_socket(int domain, int type) {
    int fd = socket(domain, type, 0);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int cs_lockdown_has_x32(void) {
#if defined(__linux__) && defined(__x86_64__)
    return 1;
#else
    return 0;
#endif
}

int cs_lockdown_try_socket_x32(int domain, int type) {
#if defined(__linux__) && defined(__x86_64__)
    long fd = syscall(CS_X32_SYSCALL_BIT | __NR_socket, domain, type, 0);
    if (fd < 0) return errno;
    close((int)fd);
    return 0;
#else
    (void)domain; (void)type;
    return -1;
#endif
}
