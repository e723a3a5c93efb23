"""Runs a command with unshare(2) refused (EPERM) by a seccomp filter, the
way a container policy that forbids namespaces would: the e2e test of the
sandbox's degradation warning.  Usage: no_unshare.py PROGRAM ARGS..."""
import ctypes
import os
import platform
import struct
import sys

# x86_64 and aarch64 numbers of unshare(2).
UNSHARE = {"x86_64": 272, "aarch64": 97}[platform.machine()]
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06
RET_ALLOW, RET_EPERM = 0x7FFF0000, 0x00050000 | 1


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


# Load the syscall number; unshare -> EPERM; anything else -> allow.
program = b"".join([
    insn(BPF_LD_W_ABS, 0, 0, 0),
    insn(BPF_JEQ_K, 0, 1, UNSHARE),
    insn(BPF_RET_K, 0, 0, RET_EPERM),
    insn(BPF_RET_K, 0, 0, RET_ALLOW),
])
filt = ctypes.create_string_buffer(program)


class SockFprog(ctypes.Structure):
    """struct sock_fprog { unsigned short len; struct sock_filter *filter; }"""
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


fprog_buf = SockFprog(len(program) // 8, ctypes.addressof(filt))
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                   ctypes.addressof(fprog_buf), 0, 0) != 0:
    sys.exit("no_unshare.py: cannot install the filter: %s"
             % os.strerror(ctypes.get_errno()))
os.execv(sys.argv[1], sys.argv[1:])
