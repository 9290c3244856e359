package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"strings"
	"syscall"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/runlog"
)

// The token of arena mcp --http is kept in a file: one arena makes (64
// hex digits), or one the person made (openssl rand -hex 32 > FILE: 64
// hex digits and a newline, which arena used to refuse after a second of
// retries, "cannot be read back"). Any printable secret of MinToken bytes
// or more is a token, its surrounding white space trimmed. The file must
// be the user's own, and no other user's to read or write: a token another
// user could read is theirs too, and one another user planted (root used
// to take one) lets them in. Each check names the file and what is wrong
// (issue 36, item 9).

// MinToken is the length a token has at least, in bytes.
const MinToken = 32

// maxTokenFile bounds the token file: a token is a line, not a document.
const maxTokenFile = 4 << 10

// Token is the token in the file at path, made (64 random hex digits,
// 0600, its directory made 0700: runlog.NewSecret) when there is none and
// create is set.
func Token(path string, create bool) (string, error) {
	tok, err := readToken(path)
	if !errors.Is(err, fs.ErrNotExist) || !create {
		return tok, err
	}
	if err := runlog.NewSecret(path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s: cannot make a token there: %w", path, err)
	}
	// Made whole and linked into place: this reads a whole token, this
	// arena's or that of another one making it at once.
	return readToken(path)
}

// readToken reads and checks the token file at path.
func readToken(path string) (string, error) {
	f, err := trust.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("the token file %w", err)
	}
	defer f.Close()
	if err := ownedPrivately(f, path); err != nil {
		return "", err
	}
	b, err := trust.ReadAll(f, path, maxTokenFile)
	if err != nil {
		return "", fmt.Errorf("the token file %w: a token is one line", err)
	}
	tok := strings.TrimSpace(string(b))
	for i, c := range []byte(tok) {
		if c <= ' ' || c > '~' {
			return "", fmt.Errorf("the token file %s holds %s at byte %d of its token: a token is one word of printable ASCII characters (openssl rand -hex 32 > %s makes one)", path, byteWords(c), i+1, path)
		}
	}
	if len(tok) < MinToken {
		return "", fmt.Errorf("the token file %s holds a token of %d bytes: it must have at least %d (openssl rand -hex 32 > %s makes one)", path, len(tok), MinToken, path)
	}
	return tok, nil
}

// byteWords names a byte a token cannot hold.
func byteWords(c byte) string {
	switch {
	case c == ' ' || c == '\t':
		return "a space"
	case c == '\n' || c == '\r':
		return "a line break"
	case c > '~':
		return "a byte that is not ASCII"
	}
	return "a control character"
}

// ownedPrivately checks that the file f (at path) is the user's, and no
// other user's to read or write.
func ownedPrivately(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("the token file %s: %w", path, err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("the token file %s belongs to %s, not to you: arena takes no token another user could have put there", path, owner(sys.Uid))
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("the token file %s can be read or written by other users (mode %04o): chmod 600 %s", path, perm, path)
	}
	return nil
}

// owner names the user of uid: "bob (uid 1001)".
func owner(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}
