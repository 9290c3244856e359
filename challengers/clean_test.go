package challengers

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"pty crcrlf", "a\r\r\nb", "a\nb"},
		{"lone cr", "50%\r100%\n", "50%\n100%\n"},
		{"csi colour", "\x1b[1;31mred\x1b[0m text", "red text"},
		{"csi cursor", "a\x1b[2K\x1b[1Gb", "ab"},
		{"osc title bel", "\x1b]0;title\x07after", "after"},
		{"osc hyperlink st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\ok", "ok"},
		{"charset", "\x1b(Bx", "x"},
		{"keypad", "\x1b=y", "y"},
		{"c0 controls", "a\x00b\x07c\x08d\x7fe\tf", "abcde\tf"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"c1 csi as utf8", "a\u009b31mb", "a31mb"},
		{"unicode kept", "héllo — 世界 🎉", "héllo — 世界 🎉"},
		{"trailing cr", "end\r", "end\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CleanText(tc.in); got != tc.want {
				t.Errorf("CleanText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Every split point of the input must give the same text as one write:
// reads from a pty end anywhere, including inside escape sequences, CRLF
// pairs and multi-byte characters.
func TestCleanerSplitAnywhere(t *testing.T) {
	in := "x\x1b[38;5;196mé\r\n\x1b]0;t\x1b\\世\r界\xff🎉\x1b[0m!"
	want := CleanText(in)
	for i := 0; i <= len(in); i++ {
		for j := i; j <= len(in); j++ {
			var c cleaner
			var got []byte
			got = append(got, c.Write([]byte(in[:i]))...)
			got = append(got, c.Write([]byte(in[i:j]))...)
			got = append(got, c.Write([]byte(in[j:]))...)
			got = append(got, c.Flush()...)
			if string(got) != want {
				t.Fatalf("split at %d,%d: got %q, want %q", i, j, got, want)
			}
		}
	}
}

func TestCleanerUnterminatedStringGivesUp(t *testing.T) {
	in := "\x1b]0;" + strings.Repeat("x", maxStrLen+10) + "\nvisible"
	got := CleanText(in)
	if !strings.HasSuffix(got, "\nvisible") {
		t.Fatalf("text after a runaway OSC string was swallowed: %q", got[len(got)-20:])
	}
}

func FuzzCleaner(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\x1b[31mx", "\x1b]8;;u\x07l", "\xff\xfe", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := CleanText(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if r == 0x1b || r == '\r' || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("control %U left in %q (from %q)", r, out, s)
			}
		}
	})
}

// A stream's flush returns what the decoder still held plus what the
// cleaner held back, both intact.
func TestTextStreamFlushKeepsBothHalves(t *testing.T) {
	s := newTextStream(FormatGeminiStreamJSON)
	got := string(s.feed([]byte(`{"type":"message","role":"assistant","content":"abc\r","delta":true}`)))
	got += string(s.flush())
	if got != "abc\n" {
		t.Fatalf("got %q", got)
	}
}
