//go:build unix

package door

import (
	"os"
	"syscall"
)

// pollable returns, when x is a pipe or a socket, a copy of its descriptor
// that the Go runtime's poller waits on, and a function that closes the copy
// and puts the descriptor back into blocking mode; ok is false for anything
// else, which is used as it is.
//
// An agent host hands `memgov mcp` its stdin and stdout as blocking pipes or
// sockets. Read in blocking mode, stdin holds an OS thread in read(2) between
// calls, and the goroutine answering a request can wait for the scheduler to
// take the processor back from that thread; polled, the read parks only its
// goroutine. Only pipes and sockets are switched: a terminal's mode is shared
// with the shell that started memgov, and a regular file cannot be polled.
func pollable(x any, name string) (pf *os.File, done func(), ok bool) {
	f, ok := x.(*os.File)
	if !ok {
		return nil, nil, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	dup := -1
	if err := rc.Control(func(fd uintptr) {
		var st syscall.Stat_t
		if syscall.Fstat(int(fd), &st) != nil {
			return
		}
		if m := st.Mode & syscall.S_IFMT; m != syscall.S_IFIFO && m != syscall.S_IFSOCK {
			return
		}
		if fl, err := fcntl(int(fd), syscall.F_GETFL, 0); err != nil || fl&syscall.O_NONBLOCK != 0 {
			return // already non-blocking: polled as it is
		}
		if d, err := syscall.Dup(int(fd)); err == nil {
			dup = d
		}
	}); err != nil || dup < 0 {
		return nil, nil, false
	}
	syscall.CloseOnExec(dup)
	if err := syscall.SetNonblock(dup, true); err != nil {
		syscall.Close(dup)
		return nil, nil, false
	}
	// The copy shares the original's open file description, and with it
	// the mode: closing the copy leaves the original open, and the mode is
	// put back through it.
	pf = os.NewFile(uintptr(dup), name)
	return pf, func() {
		pf.Close()
		_ = rc.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
	}, true
}

func fcntl(fd, cmd, arg int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), uintptr(arg))
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}
