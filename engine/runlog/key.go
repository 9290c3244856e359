package runlog

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// A log records how its run was started (engine.Invocation), so that
// arena resume can start it again. A log can come from anywhere (a
// colleague's, a repository's, one edited by hand), and a command line
// from a log is data, never an order. So arena signs the invocation it
// records with a key of the user's, kept 0600 in a 0700 directory of
// arena's state: a log whose signature holds was written by arena, on
// this machine, for this user, and its command is one the user ran. Any
// other log is resumed only when the person, shown what it would run,
// says so.

// KeyName is the key file's name in arena's state directory.
const KeyName = "log-key"

// Key reads the key at path, creating it when create is set and there is
// none. A key another user could read is no key: it is refused.
func Key(path string, create bool) ([]byte, error) {
	for try := 0; ; try++ {
		key, err := readKey(path)
		if err == nil || !errors.Is(err, fs.ErrNotExist) || !create {
			return key, err
		}
		if err := NewSecret(path); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if try > 0 {
			// Another arena is writing it this very moment: it links the
			// whole key into place, so it is there at the next look.
			time.Sleep(50 * time.Millisecond)
		}
		if try == 20 {
			return nil, fmt.Errorf("%s: cannot be read back", path)
		}
	}
}

func readKey(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: other users may read it (mode %v); arena does not trust it", path, st.Mode().Perm())
	}
	b, err := trust.ReadFile(path, 1024)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(string(b))
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist) // half written: read again
	}
	return key, nil
}

// NewSecret makes a file at path holding a new random secret of 32 bytes,
// as 64 hex digits (the log key, arena mcp's token): 0600, its directory
// made 0700. It is written whole under a temporary name, then linked to
// its own: a reader sees no secret or a whole one, and of two arenas
// making it at once one wins (the other gets fs.ErrExist).
func NewSecret(path string) error {
	d, err := trust.OpenDir(filepath.Dir(path), true)
	if err != nil {
		return err
	}
	defer d.Close()
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	tmp := "." + filepath.Base(path) + "-" + hex.EncodeToString(key[:6])
	f, err := d.Create(tmp, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(hex.EncodeToString(key))
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = d.Remove(tmp)
		return err
	}
	err = os.Link(filepath.Join(d.Path(), tmp), path)
	_ = d.Remove(tmp)
	return err
}

// Sign is the signature of a run's invocation with the key: of its typed
// request, its settings, its directory and its stdin (v2), or, for the
// command line an older arena recorded, of that (v1).
func Sign(key []byte, protocol string, inv engine.Invocation) string {
	m := hmac.New(sha256.New, key)
	if inv.Request == nil {
		msg, _ := json.Marshal(struct {
			Protocol string   `json:"protocol"`
			Args     []string `json:"args"`
			Dir      string   `json:"dir"`
			Stdin    string   `json:"stdin"`
		}{protocol, inv.Args, inv.Dir, inv.Stdin})
		m.Write([]byte("arena invocation v1\n"))
		m.Write(msg)
		return hex.EncodeToString(m.Sum(nil))
	}
	msg, _ := json.Marshal(struct {
		Protocol string              `json:"protocol"`
		Request  json.RawMessage     `json:"request"`
		Settings *engine.RunSettings `json:"settings"`
		Args     []string            `json:"args"`
		Dir      string              `json:"dir"`
		Stdin    string              `json:"stdin"`
	}{protocol, inv.Request, inv.Settings, inv.Args, inv.Dir, inv.Stdin})
	m.Write([]byte("arena invocation v2\n"))
	m.Write(msg)
	return hex.EncodeToString(m.Sum(nil))
}

// Signed says whether the invocation carries the key's signature.
func Signed(key []byte, protocol string, inv engine.Invocation) bool {
	if inv.MAC == "" || key == nil {
		return false
	}
	unsigned := inv
	unsigned.MAC = ""
	want := Sign(key, protocol, unsigned)
	return hmac.Equal([]byte(want), []byte(inv.MAC))
}

// Invoked is p with its start event recording how arena was run, signed
// with the user's key (unsigned when key is nil), so that arena resume
// can run it again.
func Invoked(p engine.Protocol, inv engine.Invocation, key []byte) engine.Protocol {
	return invoked{p, inv, key}
}

type invoked struct {
	engine.Protocol
	inv engine.Invocation
	key []byte
}

func (p invoked) Start() engine.DebateStarted {
	st := p.Protocol.Start()
	inv := p.inv
	if p.key != nil {
		inv.MAC = Sign(p.key, st.Protocol, inv)
	}
	st.Invocation = &inv
	return st
}
