/* Dropping every capability with libcap and locking the securebits, so a
 * child running as uid 0 is no more privileged than any other user.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/securebits.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "common/log.h"
#include "sandbox/internal.h"

/* Whether the process's `flag` set holds `cap`. */
static int has_cap(cap_value_t cap, cap_flag_t flag)
{
    cap_t caps = cap_get_proc();
    cap_flag_value_t v = CAP_CLEAR;
    if (!caps)
        return 0;
    if (cap_get_flag(caps, cap, flag, &v) < 0)
        v = CAP_CLEAR;
    cap_free(caps);
    return v == CAP_SET;
}

/* Whether the process's permitted set is empty. */
static int permitted_empty(void)
{
    cap_t caps = cap_get_proc();
    cap_t none = cap_init();
    int empty = 0;
    if (caps && none)
        empty = !CAP_DIFFERS(cap_compare(caps, none), CAP_PERMITTED);
    cap_free(caps);
    cap_free(none);
    return empty;
}

int lt__sbx_caps_droppable(void)
{
    return has_cap(CAP_SETPCAP, CAP_PERMITTED) || permitted_empty();
}

int lt__sbx_caps_can_netns(void)
{
    return has_cap(CAP_SYS_ADMIN, CAP_EFFECTIVE);
}

/* Whether every set of this process is empty: effective, permitted,
 * inheritable, and ambient. */
static int all_clear(void)
{
    cap_t caps = cap_get_proc();
    cap_t none = cap_init();
    int clear = caps && none && cap_compare(caps, none) == 0;
    cap_free(caps);
    cap_free(none);
    if (!clear)
        return 0;
    if (CAP_AMBIENT_SUPPORTED()) {
        for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++)
            if (cap_get_ambient(c) > 0)
                return 0;
    }
    return 1;
}

int lt__sbx_caps_drop(void)
{
    /* A process that starts with nothing permitted cannot regain anything
     * without execve, which seccomp refuses and no_new_privs neuters; its
     * bounding set is then moot.  Root must empty it. */
    int unprivileged = permitted_empty();
    int bounding_ok = 1;

    /* Securebits first, while CAP_SETPCAP is still ours: uid 0 gains no
     * capabilities from execve (NOROOT), setuid() does not touch them
     * (NO_SETUID_FIXUP), ambient ones cannot be raised, and all of it is
     * locked so nobody undoes it. */
    unsigned bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
                    SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                    SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                    SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (cap_set_secbits(bits) < 0 && !unprivileged) {
        int e = errno;
        lt__sbx_note(LT_SBX_CAPS, "securebits: %s", strerror(e));
        return -e;
    }

    /* The bounding set caps what any future execve could grant.  Dropping
     * needs CAP_SETPCAP, so it comes before the sets below are cleared. */
    for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++) {
        if (cap_drop_bound(c) < 0) {
            if (errno == EINVAL)
                continue; /* capability newer than the kernel */
            bounding_ok = 0;
            break;
        }
    }

    /* Ambient capabilities survive execve of unprivileged binaries. */
    if (CAP_AMBIENT_SUPPORTED() && cap_reset_ambient() < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_CAPS, "ambient: %s", strerror(e));
        return -e;
    }

    /* Finally effective, permitted and inheritable, all at once. */
    cap_t none = cap_init();
    if (!none)
        return -ENOMEM;
    int rc = cap_set_proc(none);
    int e = errno;
    cap_free(none);
    if (rc < 0) {
        lt__sbx_note(LT_SBX_CAPS, "cap_set_proc: %s", strerror(e));
        return -e;
    }

    if (!all_clear()) {
        lt__sbx_note(LT_SBX_CAPS, "capabilities still held after the drop");
        return -EPERM;
    }
    if (!bounding_ok && !unprivileged) {
        lt__sbx_note(LT_SBX_CAPS, "bounding set not emptied");
        return -EPERM;
    }
    return 0;
}
