//go:build unix

package challengers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// A wire is one end of the stream socket between arena and its run's
// supervisor. A message is a list of fields (byte strings: an argv or an
// environment holds any bytes) in a frame: the frame's length, then each
// field's length and bytes, lengths as 4-byte little-endian numbers. A
// message may carry open files (SCM_RIGHTS): the kernel hands them over
// with the message's first bytes, so they are always there by the time
// the whole message has been read, queued in the order they were sent.
type wire struct {
	conn *net.UnixConn

	wmu sync.Mutex // one message at a time on the way out

	// The reading side belongs to one goroutine.
	buf  []byte // bytes read and not yet taken as a message
	fds  []int  // descriptors received and not yet taken
	rbuf []byte
	oob  []byte
}

// maxFrame bounds a message: an argv holds at most a prompt of
// MaxArgBytes, an environment a few hundred KiB at most.
const maxFrame = 16 << 20

// newWire takes over f, a connected stream socket.
func newWire(f *os.File) (*wire, error) {
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, errors.New("not a unix socket")
	}
	return &wire{conn: uc, rbuf: make([]byte, 64<<10), oob: make([]byte, unix.CmsgSpace(4*8))}, nil
}

// socketPair returns the two ends of a new stream socket, each closed on
// exec.
func socketPair() (a, b *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	return os.NewFile(uintptr(fds[0]), "supervisor"), os.NewFile(uintptr(fds[1]), "supervisor"), nil
}

// send writes one message, with files attached when there are any.
func (w *wire) send(files []*os.File, fields ...string) error {
	n := 4
	for _, f := range fields {
		n += 4 + len(f)
	}
	frame := make([]byte, 0, n)
	frame = binary.LittleEndian.AppendUint32(frame, uint32(n-4))
	for _, f := range fields {
		frame = binary.LittleEndian.AppendUint32(frame, uint32(len(f)))
		frame = append(frame, f...)
	}
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = unix.UnixRights(fds...)
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	wrote, _, err := w.conn.WriteMsgUnix(frame, oob, nil)
	if err == nil && wrote < len(frame) {
		// A stream socket may take part of it; the files went with
		// the first part.
		_, err = w.conn.Write(frame[wrote:])
	}
	return err
}

// recv reads the next message.
func (w *wire) recv() ([]string, error) {
	for {
		if fields, ok, err := w.parse(); ok || err != nil {
			return fields, err
		}
		n, oobn, _, _, err := w.conn.ReadMsgUnix(w.rbuf, w.oob)
		if oobn > 0 {
			w.takeRights(w.oob[:oobn])
		}
		if n > 0 {
			w.buf = append(w.buf, w.rbuf[:n]...)
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(w.buf) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

func (w *wire) takeRights(oob []byte) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return
	}
	for i := range msgs {
		if fds, err := unix.ParseUnixRights(&msgs[i]); err == nil {
			w.fds = append(w.fds, fds...)
		}
	}
}

// parse takes one whole message off the buffer, if one is there.
func (w *wire) parse() ([]string, bool, error) {
	if len(w.buf) < 4 {
		return nil, false, nil
	}
	size := int(binary.LittleEndian.Uint32(w.buf))
	if size > maxFrame {
		return nil, false, fmt.Errorf("a message of %d bytes", size)
	}
	if len(w.buf) < 4+size {
		return nil, false, nil
	}
	body := w.buf[4 : 4+size]
	var fields []string
	for len(body) > 0 {
		if len(body) < 4 || int(binary.LittleEndian.Uint32(body)) > len(body)-4 {
			return nil, false, errors.New("a broken message")
		}
		l := int(binary.LittleEndian.Uint32(body))
		fields = append(fields, string(body[4:4+l]))
		body = body[4+l:]
	}
	w.buf = w.buf[4+size:]
	if len(w.buf) == 0 {
		w.buf = w.buf[:0:0] // let a big message's buffer go
	}
	return fields, true, nil
}

// files takes the next n descriptors received, as files.
func (w *wire) files(n int) ([]*os.File, error) {
	if n < 0 || n > len(w.fds) {
		return nil, fmt.Errorf("%d files announced, %d received", n, len(w.fds))
	}
	out := make([]*os.File, n)
	for i, fd := range w.fds[:n] {
		out[i] = os.NewFile(uintptr(fd), "fd"+strconv.Itoa(i))
	}
	w.fds = w.fds[n:]
	return out, nil
}

func (w *wire) close() error { return w.conn.Close() }
