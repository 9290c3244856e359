package trust

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
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
		// Issue 36, item 10: every character a person cannot see.
		{"tag characters", "ok\U000E0001\U000E0049\U000E0047\U000E007F", "ok<U+E0001><U+E0049><U+E0047><U+E007F>"},
		{"soft hyphen", "pass\u00ADword", "pass<U+00AD>word"},
		{"combining grapheme joiner", "a\u034Fb", "a<U+034F>b"},
		{"mongolian vowel separator", "a\u180Eb", "a<U+180E>b"},
		{"hangul fillers", "\u115F\u1160\u3164\uFFA0", "<U+115F><U+1160><U+3164><U+FFA0>"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a<U+2028>b<U+2029>c"},
		{"khmer inherent vowels", "\u17B4\u17B5", "<U+17B4><U+17B5>"},
		{"variation selectors after text", "a\uFE0Fb\uFE00\U000E0100", "a<U+FE0F>b<U+FE00><U+E0100>"},
		{"interlinear annotation", "\uFFF9a\uFFFAb\uFFFB", "<U+FFF9>a<U+FFFA>b<U+FFFB>"},
		{"unassigned default-ignorable", "\u2065\uFFF0\U000E0FFF", "<U+2065><U+FFF0><U+E0FFF>"},
		{"arabic number sign shows", "\u0600\u0661\u0662", "\u0600\u0661\u0662"},
		// Issue 40, item 16: emoji written with invisible characters stay
		// whole; the same characters anywhere else are shown.
		{"family", "👨\u200D👩\u200D👧\u200D👦", "👨\u200D👩\u200D👧\u200D👦"},
		{"skin tone and joiner", "👩🏽\u200D💻 👍🏿", "👩🏽\u200D💻 👍🏿"},
		{"emoji presentation", "❤\uFE0F \u263A\uFE0E ©\uFE0F", "❤\uFE0F \u263A\uFE0E ©\uFE0F"},
		{"selector then joiner", "🏳\uFE0F\u200D🌈 ❤\uFE0F\u200D🔥", "🏳\uFE0F\u200D🌈 ❤\uFE0F\u200D🔥"},
		{"keycap", "1\uFE0F\u20E3#\uFE0F\u20E3", "1\uFE0F\u20E3#\uFE0F\u20E3"},
		{"flag of england", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F!", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F!"},
		{"words in tags after a flag", "🏴\U000E0068\U000E0069\U000E007F", "🏴<U+E0068><U+E0069><U+E007F>"},
		{"joiner after text", "x\u200D👩", "x<U+200D>👩"},
		{"joiner before text", "👨\u200Dx", "👨<U+200D>x"},
		{"joiner at the end", "👨\u200D", "👨<U+200D>"},
		{"two joiners", "👨\u200D\u200D👩", "👨<U+200D><U+200D>👩"},
		{"joiner in indic text", "क्\u200Dष", "क्<U+200D>ष"},
		{"keycap selector without keycap", "1\uFE0F", "1<U+FE0F>"},
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
	for _, in := range []string{
		"\uFEFFx\x1b[38;5;196mé\r\n\x1b]0;t\x1b\\世\r界\xff🎉\u202E\x1b[0m!\u2066\uFEFF\u061C",
		"👩🏽\u200D\x1b[0m💻\U000E0041x\u200D1\uFE0F\u20E3",
		"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F🏴\U000E0067\U000E0062\U000E007F",
	} {
		splitAnywhere(t, in)
	}
}

func splitAnywhere(t *testing.T, in string) {
	t.Helper()
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
	for _, s := range []string{"", "a\r\nb", "\x1b[31mx", "\x1b]8;;u\x07l", "\xff\xfe", "é", "\uFEFFa\u202Eb\u2066c\u200B", "\xe2\x80\xae", "\x1b[m\uFEFF\uFEFF",
		"👨\u200D👩\u200D👧", "👩🏽\u200D💻\uFE0F", "1\uFE0F\u20E3", "🏴\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F", "a\u00AD\U000E0041\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		// A byte at a time, the cleaner rarely takes its path for clean
		// text: the two must agree.
		if slow := byteAtATime(s); slow != out {
			t.Fatalf("Text(%q) = %q, a byte at a time %q", s, out, slow)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if r == 0x1b || r == '\r' || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("control %U left in %q (from %q)", r, out, s)
			}
			if isInvisibleRef(r) && !emojiPart(r) {
				t.Fatalf("invisible %U left in %q (from %q)", r, out, s)
			}
		}
		// The runner cleans a reply twice: the second time changes nothing.
		if again := Text(out); again != out {
			t.Fatalf("Text(Text(%q)) = %q, not %q", s, again, out)
		}
		// Text with nothing to remove: the invisible characters are
		// shown as escapes but in emoji, a leading byte-order mark goes,
		// and nothing else changes.
		if plainInput(s) {
			if want := showInvisibleRef(s); out != want {
				t.Fatalf("Text(%q) = %q, want %q", s, out, want)
			}
		}
	})
}

// byteAtATime is what a cleaner makes of s written to it a byte at a time.
func byteAtATime(s string) string {
	var c Cleaner
	var out []byte
	for i := range len(s) {
		out = append(out, c.Write([]byte{s[i]})...)
	}
	return string(append(out, c.Flush()...))
}

// isInvisibleRef is what a person cannot see, by Unicode's properties as
// issue 36 (item 10) names them, and the characters issues 29 and 36
// named, written out.
func isInvisibleRef(r rune) bool {
	for _, x := range []rune{0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x3164, 0xFEFF, 0xFFA0} {
		if r == x {
			return true
		}
	}
	switch {
	case r >= 0x2060 && r <= 0x206F, r >= 0xE0000 && r <= 0xE0FFF, r >= 0xFE00 && r <= 0xFE0F:
		return true
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// emojiPart is an invisible character an emoji is written with.
func emojiPart(r rune) bool {
	return r == 0x200D || r == 0xFE0E || r == 0xFE0F || r >= 0xE0020 && r <= 0xE007F
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

// showInvisibleRef is what the cleaner makes of plain text, rune by rune
// with the whole text at hand: every invisible character as <U+XXXX>,
// but a joiner between two emoji, a variation selector after an emoji or
// in a keycap, and the tags of the flags of England, Scotland and Wales.
func showInvisibleRef(s string) string {
	rs := []rune(strings.TrimPrefix(s, "\uFEFF"))
	var b strings.Builder
	base := rune(0)
	at := func(i int) rune {
		if i < len(rs) {
			return rs[i]
		}
		return 0
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !isInvisibleRef(r) {
			b.WriteRune(r)
			if r < 0x1F3FB || r > 0x1F3FF {
				base = r
			}
			continue
		}
		keep := 1
		switch {
		case r == 0x200D && emoji(base) && emoji(at(i+1)):
		case (r == 0xFE0F || r == 0xFE0E) && emoji(base):
		case r == 0xFE0F && strings.ContainsRune("0123456789#*", base) && at(i+1) == 0x20E3:
		case base == 0x1F3F4 && flagAt(rs[i:]) > 0:
			keep = flagAt(rs[i:])
		default:
			fmt.Fprintf(&b, "<U+%04X>", r)
			base = '>'
			continue
		}
		b.WriteString(string(rs[i : i+keep]))
		i += keep - 1
	}
	return b.String()
}

// flagAt is the length of the flag's tags rs starts with, or 0.
func flagAt(rs []rune) int {
	for _, code := range []string{"gbeng", "gbsct", "gbwls"} {
		if len(rs) < len(code)+1 || rs[len(code)] != 0xE007F {
			continue
		}
		match := true
		for j, c := range code {
			match = match && rs[j] == 0xE0000+c
		}
		if match {
			return len(code) + 1
		}
	}
	return 0
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
		`{"tags":"a\udb40\udc41b\u00ad"}`:               `{"tags":"a<U+E0041>b<U+00AD>"}`,
		`{"family":"\ud83d\udc68\u200d\ud83d\udc69"}`:   `{"family":"\ud83d\udc68\u200d\ud83d\udc69"}`,
		"{\"raw\":\"\u2028\U000E0041\"}":                `{"raw":"<U+2028><U+E0041>"}`,
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

// Text made of what emoji are written with, and of what breaks them up,
// cut anywhere: the cleaner streaming a byte at a time, the cleaner given
// it whole, and the reference agree. (Random bytes rarely spell a flag's
// tags; this alphabet does.)
func TestCleanerKeepsEmojiWholeWhereverTheTextIsCut(t *testing.T) {
	alphabet := []string{"👨", "👩", "🏴", "1", "x", " ", "\u200D", "\uFE0F", "\uFE0E", "\u20E3", "🏽",
		"\U000E0067", "\U000E0062", "\U000E0065", "\U000E006E", "\U000E007F", "\U000E0041", "\u00AD", "\u2028", "\x1b[0m", "\r\n"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if r.IntN(3) == 0 {
			b.WriteString("🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F")
		}
		s := b.String()
		out := Text(s)
		if slow := byteAtATime(s); slow != out {
			t.Fatalf("Text(%q) = %q, a byte at a time %q", s, out, slow)
		}
		if plainInput(s) {
			if want := showInvisibleRef(s); out != want {
				t.Fatalf("Text(%q) = %q, want %q", s, out, want)
			}
		}
		if again := Text(out); again != out {
			t.Fatalf("Text(Text(%q)) = %q, not %q", s, again, out)
		}
	}
}
