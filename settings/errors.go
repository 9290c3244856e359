package settings

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem with one setting. It says where the bad value was
// written so the user can go straight to it: a file and line, or a flag.
type Error struct {
	File string // the file holding the value; "" for a flag
	Line int    // 1-based line in File; 0 when unknown
	Flag string // the flag at fault, without dashes ("max-rounds"); "" for a file
	Key  string // dotted settings key ("agents.llama.timeout"); "" when none applies
	Msg  string
	Err  error // the underlying cause, if any
}

// Error formats as "file:line: key: msg" or "flag --name: msg".
func (e *Error) Error() string {
	return where(e.File, e.Line, e.Flag, e.Key) + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// where builds the location prefix shared by errors and warnings. A flag
// error leaves the key out: the flag name already says which setting.
func where(file string, line int, flag, key string) string {
	var b strings.Builder
	if flag != "" {
		b.WriteString("flag --" + flag + ": ")
	}
	if file != "" {
		b.WriteString(file)
		if line > 0 {
			b.WriteString(":" + strconv.Itoa(line))
		}
		b.WriteString(": ")
	}
	if key != "" && flag == "" {
		b.WriteString(key + ": ")
	}
	return b.String()
}

// origin is where a value came from: a file line, a flag, or a label such
// as "default" or "found on PATH".
type origin struct {
	file  string
	line  int
	flag  string
	label string
}

var defaultOrigin = origin{label: "default"}

func flagOrigin(name string) origin { return origin{flag: name} }

// String is the provenance shown by `arena config`.
func (o origin) String() string {
	switch {
	case o.flag != "":
		return "flag --" + o.flag
	case o.file != "" && o.line > 0:
		return o.file + ":" + strconv.Itoa(o.line)
	case o.file != "":
		return o.file
	}
	return o.label
}

func (o origin) isZero() bool { return o == origin{} }

// err builds an *Error located at o; cause may be nil.
func (o origin) err(key, msg string, cause error) *Error {
	return &Error{File: o.file, Line: o.line, Flag: o.flag, Key: key, Msg: msg, Err: cause}
}

// errorf is err with a formatted message and no cause.
func (o origin) errorf(key, format string, args ...any) *Error {
	return o.err(key, fmt.Sprintf(format, args...), nil)
}

// warning formats a non-fatal problem the same way as an error.
func (o origin) warning(key, msg string) string {
	return where(o.file, o.line, o.flag, key) + msg
}
