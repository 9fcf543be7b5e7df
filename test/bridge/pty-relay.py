# Runs a program in a pseudo-terminal of a given size and relays bytes: this process's stdin to the
# terminal (the keys a person types), the terminal's output to this process's stdout. Exits with the
# program's status. For tests that drive a terminal UI from Node without a native module
# (test/bridge/pty-screen.ts). Usage: python3 pty-relay.py COLS ROWS PROGRAM [ARGS...]
import errno
import fcntl
import os
import pty
import select
import struct
import sys
import termios

cols, rows, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
watch = [0, fd]
while True:
    try:
        ready, _, _ = select.select(watch, [], [])
    except InterruptedError:
        continue
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            watch.remove(0)  # the test closed our stdin: the program keeps running
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            data = b''
        if not data:
            break  # the program and every process holding the terminal are gone
        os.write(1, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, 'waitstatus_to_exitcode') else (status >> 8))
