package trust

import (
	"fmt"
	"math/rand/v2"
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
		// Trojan Source: the characters that reorder or hide text are
		// shown, not obeyed.
		{"right-to-left override", "a\u202Eb", "a<U+202E>b"},
		{"every bidi control", "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C",
			"<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069><U+200E><U+200F><U+061C>"},
		{"zero-width", "x\u200By\u200Cz\u200D!\u2060?", "x<U+200B>y<U+200C>z<U+200D>!<U+2060>?"},
		{"trojan source", "if access != \"user\u202E \u2066// admin?\u2069 \u2066\" {",
			"if access != \"user<U+202E> <U+2066>// admin?<U+2069> <U+2066>\" {"},
		{"leading bom dropped", "\uFEFFtopic", "topic"},
		{"bom after escapes still leading", "\x1b[1m\uFEFFtopic", "topic"},
		{"inner bom shown", "a\uFEFFb", "a<U+FEFF>b"},
		{"second bom shown", "\uFEFF\uFEFFb", "<U+FEFF>b"},
		{"right-to-left scripts kept", "שלום مرحبا", "שלום مرحبا"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Every split point of the input must give the same text as one write:
// reads from a pty end anywhere, including inside escape sequences, CRLF
// pairs and multi-byte characters.
func TestCleanerSplitAnywhere(t *testing.T) {
	in := "\uFEFFx\x1b[38;5;196mé\r\n\x1b]0;t\x1b\\世\r界\xff🎉\u202E\x1b[0m!\u2066\uFEFF\u061C"
	want := Text(in)
	for i := 0; i <= len(in); i++ {
		for j := i; j <= len(in); j++ {
			var c Cleaner
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
	got := Text(in)
	if !strings.HasSuffix(got, "\nvisible") {
		t.Fatalf("text after a runaway OSC string was swallowed: %q", got[len(got)-20:])
	}
}

func FuzzCleaner(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\x1b[31mx", "\x1b]8;;u\x07l", "\xff\xfe", "é", "\uFEFFa\u202Eb\u2066c\u200B", "\xe2\x80\xae", "\x1b[m\uFEFF\uFEFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		// A byte at a time, the cleaner rarely takes its path for clean
		// text: the two must agree.
		var c Cleaner
		var slow []byte
		for i := range len(s) {
			slow = append(slow, c.Write([]byte{s[i]})...)
		}
		if slow = append(slow, c.Flush()...); string(slow) != out {
			t.Fatalf("Text(%q) = %q, a byte at a time %q", s, out, slow)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if r == 0x1b || r == '\r' || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("control %U left in %q (from %q)", r, out, s)
			}
			if isInvisibleRef(r) {
				t.Fatalf("invisible %U left in %q (from %q)", r, out, s)
			}
		}
		// The runner cleans a reply twice: the second time changes nothing.
		if again := Text(out); again != out {
			t.Fatalf("Text(Text(%q)) = %q, not %q", s, again, out)
		}
		// Text with nothing to remove: the invisible characters are
		// shown as escapes, a leading byte-order mark goes, and nothing
		// else changes.
		if plainInput(s) {
			if want := showInvisibleRef(s); out != want {
				t.Fatalf("Text(%q) = %q, want %q", s, out, want)
			}
		}
	})
}

// isInvisibleRef is the list of issue 29, written out: the bidirectional
// controls, the zero-width characters, the rest of the U+2060 block and
// the byte-order mark.
func isInvisibleRef(r rune) bool {
	for _, x := range []rune{0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0xFEFF} {
		if r == x {
			return true
		}
	}
	return r >= 0x2060 && r <= 0x206F
}

// plainInput: valid UTF-8 with no control character but newline and tab.
func plainInput(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
			return false
		}
	}
	return true
}

func showInvisibleRef(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	var b strings.Builder
	for _, r := range s {
		if isInvisibleRef(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// eachSpanInput calls fn with inputs for the word-at-a-time scans: every
// byte value at every position of a 20-byte run, with and without a byte
// >= 0x80 beside it, and random mixes of the bytes that matter.
func eachSpanInput(fn func([]byte)) {
	base := []byte("abcdefghijklmnopqrst")
	for c := range 256 {
		for pos := range 19 {
			p := append([]byte(nil), base...)
			p[pos] = byte(c)
			fn(p)
			p[pos+1] = 0xc3
			fn(p)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	special := []byte{'\n', '\t', '\r', 0, 0x1b, 0x7f, 0x80, 0xc2, 0xff, '"', '\\', ' ', 'a', 0x1f, 0x20}
	for range 20000 {
		p := make([]byte, r.IntN(40))
		for i := range p {
			if r.IntN(4) == 0 {
				p[i] = special[r.IntN(len(special))]
			} else {
				p[i] = 'a' + byte(r.IntN(26))
			}
		}
		fn(p)
	}
}

// plainSpan finds what a byte-at-a-time loop finds.
func TestPlainSpanMatchesBytewiseLoop(t *testing.T) {
	naive := func(p []byte) (int, bool) {
		high := false
		for i, c := range p {
			if !isPlain(c) {
				return i, high
			}
			high = high || c >= 0x80
		}
		return len(p), high
	}
	eachSpanInput(func(p []byte) {
		for start := 0; start <= 3 && start <= len(p); start++ {
			q := p[start:]
			wi, wh := naive(q)
			if gi, gh := plainSpan(q); gi != wi || gh != wh {
				t.Fatalf("plainSpan(%q) = %d, %v; want %d, %v", q, gi, gh, wi, wh)
			}
			if gi, gh := plainSpan(string(q)); gi != wi || gh != wh {
				t.Fatalf("plainSpan(string %q) = %d, %v; want %d, %v", q, gi, gh, wi, wh)
			}
		}
	})
}

// Clean text passes through the cleaner without being copied.
func TestCleanTextIsNotCopied(t *testing.T) {
	in := []byte("plain text, tabs\tand newlines\n, and UTF-8: héllo — 世界 🎉\n")
	var c Cleaner
	if out := c.Write(in); len(out) != len(in) || &out[0] != &in[0] {
		t.Fatalf("clean text was copied: %q", out)
	}
	// Not from a state that holds something back.
	c.Write([]byte("a\r"))
	if out := c.Write(in); string(out) != "\n"+string(in) {
		t.Fatalf("after a CR: %q", out)
	}
}

func TestJSONCleansStrings(t *testing.T) {
	in := map[string]string{"k": "a\u009b31mb\x1b[2Jc"}
	b, err := JSON(in)
	if err != nil || string(b) != `{"k":"a31mbc"}` {
		t.Fatalf("%s %v", b, err)
	}
}

func TestCleanJSON(t *testing.T) {
	cases := map[string]string{
		`{"b":"x\u001b]0;T\u0007y","a":[1,"\u009b2J"]}`: `{"b":"xy","a":[1,"2J"]}`,
		`{"text":"a literal \\u001b stays"}`:            `{"text":"a literal \\u001b stays"}`,
		`{"k":"tab\tand \n newline"}`:                   `{"k":"tab\tand \n newline"}`,
		`{"z": 1, "y":"\u00e9"}`:                        `{"z": 1, "y":"\u00e9"}`,
		"{\"c1\":\"a\u009bb\"}":                         `{"c1":"ab"}`,
		`{"k":"a\u202eb","z":"\u200B"}`:                 `{"k":"a<U+202E>b","z":"<U+200B>"}`,
		"{\"raw\":\"a\u202eb \u2066\"}":                 `{"raw":"a<U+202E>b <U+2066>"}`,
		`{"bom":"\ufeffx"}`:                             `{"bom":"x"}`,
		`{"text":"a literal \\u202e stays"}`:            `{"text":"a literal \\u202e stays"}`,
	}
	for in, want := range cases {
		if got := string(CleanJSON([]byte(in))); got != want {
			t.Errorf("CleanJSON(%s) = %s, want %s", in, got, want)
		}
	}
	clean := []byte(`{"a":"b"}`)
	if got := CleanJSON(clean); &got[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
}
