package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"
)

// What Stream needs to lay out only the tail of a block being written:
// where a paragraph's rendered line starts in its Markdown, which inline
// constructs are open there, and whether a code block's lines so far
// close every construct they open.

// opener is an inline construct's opening mark: its byte, how many of
// it, and where. A weak one (an "*" inside a word, which can open or
// close) is taken as text until something closes it.
type opener struct {
	c    byte
	n    int
	at   int
	weak bool
}

// inlineScan reads the inline constructs of a paragraph: those open so
// far, outermost first.
type inlineScan struct{ stack []opener }

func scanInline(md string) inlineScan {
	var sc inlineScan
	for i := 0; i < len(md); {
		n, stop := sc.step(md, i)
		if stop {
			break
		}
		i += n
	}
	return sc
}

// carried are the marks that open the constructs open at the end of md
// and that a rendering of what follows must open again to read as the
// whole does: emphasis and short code spans (a run of three backticks in
// a paragraph is a broken fence, not a span). ok is false when another
// construct is open: a link, whose text and address must be rendered
// together, or a tag.
func carried(md string) (marks string, ok bool) {
	sc := scanInline(md)
	var b strings.Builder
	for _, o := range sc.stack {
		switch {
		case o.weak:
		case o.c == '[' || o.c == '(' || o.c == '<':
			return "", false
		default:
			b.WriteString(strings.Repeat(string(o.c), o.n))
		}
	}
	return b.String(), true
}

// closeOpen is md with the emphasis and code spans it leaves open closed
// at its end, so that the text being written reads as it will once the
// model closes them: bold from its "**" on, not a literal "**" that
// vanishes a frame later. (A mark the model never closes shows as it is
// once the block is finished and rendered whole.)
func closeOpen(md string) string {
	sc := scanInline(md)
	var b strings.Builder
	for k := len(sc.stack) - 1; k >= 0; k-- {
		if o := sc.stack[k]; !o.weak && strings.IndexByte("`*_~", o.c) >= 0 {
			b.WriteString(strings.Repeat(string(o.c), o.n))
		}
	}
	if b.Len() == 0 {
		return md
	}
	body := strings.TrimRight(md, " \n")
	return body + b.String() + md[len(body):]
}

// step reads the mark at md[i]: how many bytes it takes, and whether a
// construct opened there stays open to the end of md (it is then on the
// stack, last).
func (sc *inlineScan) step(md string, i int) (int, bool) {
	switch c := md[i]; c {
	case '\\':
		if i+1 < len(md) && isASCIIPunct(md[i+1]) {
			return 2, false
		}
	case '`':
		return sc.ticks(md, i)
	case '*', '_', '~':
		n := runOf(md, i)
		sc.delimiter(md, i, n)
		return n, false
	case '[':
		sc.stack = append(sc.stack, opener{c: '[', n: 1, at: i})
	case ']':
		sc.closeBracket(md, i)
	case ')':
		sc.pop('(')
	case '<':
		if i+1 < len(md) && (isLetter(md[i+1]) || md[i+1] == '/' || md[i+1] == '!') {
			end := strings.IndexByte(md[i:], '>')
			if end < 0 {
				sc.stack = append(sc.stack, opener{c: '<', n: 1, at: i})
				return 1, true
			}
			return end + 1, false
		}
	}
	return 1, false
}

// ticks reads a run of backticks: a code span to its closing run, or one
// open to the end; three or more with no closing run are text.
func (sc *inlineScan) ticks(md string, i int) (int, bool) {
	n := runOf(md, i)
	if end := closingTicks(md, i+n, n); end >= 0 {
		return end + n - i, false
	}
	if n >= 3 {
		return n, false
	}
	sc.stack = append(sc.stack, opener{c: '`', n: n, at: i})
	return n, true
}

// delimiter reads a run of n emphasis marks at md[i]: it closes the
// nearest open run of the same mark when it can close, and opens one
// when it can open and closed none (CommonMark's flanking rules; an
// intraword "_" does neither).
func (sc *inlineScan) delimiter(md string, i, n int) {
	c := md[i]
	before, _ := utf8.DecodeLastRuneInString(md[:i])
	after, _ := utf8.DecodeRuneInString(md[i+n:])
	if i == 0 {
		before = ' '
	}
	if i+n >= len(md) {
		after = ' '
	}
	left := !unicode.IsSpace(after) && (!isPunctRune(after) || unicode.IsSpace(before) || isPunctRune(before))
	right := !unicode.IsSpace(before) && (!isPunctRune(before) || unicode.IsSpace(after) || isPunctRune(after))
	canOpen, canClose := left, right
	if c == '_' {
		canOpen = left && (!right || isPunctRune(before))
		canClose = right && (!left || isPunctRune(after))
	}
	if canClose && sc.close(c, n, i+n == len(md)) {
		return
	}
	if canOpen {
		sc.stack = append(sc.stack, opener{c: c, n: n, at: i, weak: canClose || !opensWord(after)})
	}
}

// opensWord says whether r, after an opening mark, starts what the mark
// emphasises: "**word", "*«quote»", not "_, " (a mark before punctuation
// is, in what models write, a stray one, shown as it is).
func opensWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("`*_~([\"'«", r)
}

// close closes the nearest open run of mark c with a run of n, and the
// constructs opened after it, reporting whether there was one. A run at
// the very end, shorter than the one it closes, is a closing run being
// written: the rest of it is still to come.
func (sc *inlineScan) close(c byte, n int, atEnd bool) bool {
	for k := len(sc.stack) - 1; k >= 0; k-- {
		if o := sc.stack[k]; o.c == c {
			if atEnd && n < o.n {
				sc.stack[k].n -= n
				sc.stack = sc.stack[:k+1]
				return true
			}
			sc.stack = sc.stack[:k]
			return true
		}
	}
	return false
}

// pop closes the nearest open construct of mark c, and those opened
// after it (which can no longer close), reporting whether there was one.
func (sc *inlineScan) pop(c byte) bool {
	for k := len(sc.stack) - 1; k >= 0; k-- {
		if sc.stack[k].c == c {
			sc.stack = sc.stack[:k]
			return true
		}
	}
	return false
}

// closeBracket closes a link's text: "](" opens its destination, from
// where the "[" was.
func (sc *inlineScan) closeBracket(md string, i int) {
	for k := len(sc.stack) - 1; k >= 0; k-- {
		if sc.stack[k].c != '[' {
			continue
		}
		at := sc.stack[k].at
		sc.stack = sc.stack[:k]
		if i+1 < len(md) && md[i+1] == '(' {
			sc.stack = append(sc.stack, opener{c: '(', n: 1, at: at})
		}
		return
	}
}

// runOf is how many of md[i] follow one another from i.
func runOf(md string, i int) int {
	n := 1
	for i+n < len(md) && md[i+n] == md[i] {
		n++
	}
	return n
}

// closingTicks is where, from i on, a run of exactly n backticks starts,
// or -1.
func closingTicks(md string, i, n int) int {
	for i < len(md) {
		j := strings.IndexByte(md[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := runOf(md, j)
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

func isASCIIPunct(c byte) bool {
	return c < utf8.RuneSelf && unicode.IsPunct(rune(c)) || strings.IndexByte("$+<=>^`|~", c) >= 0
}

func isPunctRune(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// lineStart is where in src, the Markdown of one paragraph, the line k
// of its rendering starts: src's words (what white space separates)
// matched one by one against the words of lines[:k], each compared
// without the marks Markdown takes away (emphasis, code, escapes) and
// the last ones of a word too wide for a line carried to the next, and
// the start of the word that opens line k. ok is false when they do not
// match (a link, which renders its address as another word; an entity),
// or when line k starts in the middle of a word.
func lineStart(src string, lines []string, k int) (at int, ok bool) {
	tok := tokens{src: src}
	for _, ln := range lines[:k] {
		for _, w := range strings.Fields(xansi.Strip(ln)) {
			if !tok.eat(bare(w)) {
				return 0, false
			}
		}
	}
	if tok.rest != "" || k >= len(lines) {
		return 0, false
	}
	first := strings.Fields(xansi.Strip(lines[k]))
	at = tok.next()
	if len(first) == 0 || at < 0 || !strings.HasPrefix(bare(tok.word(at)), bare(first[0])) {
		return 0, false
	}
	return at, true
}

// tokens reads src's words in order.
type tokens struct {
	src  string
	off  int    // where the next word is looked for
	rest string // what is left of the word being matched, bare
}

// next is where the next word starts (-1: none), without taking it.
func (t *tokens) next() int {
	for i, r := range t.src[t.off:] {
		if !unicode.IsSpace(r) {
			return t.off + i
		}
	}
	return -1
}

// word is the word that starts at at.
func (t *tokens) word(at int) string {
	end := strings.IndexFunc(t.src[at:], unicode.IsSpace)
	if end < 0 {
		return t.src[at:]
	}
	return t.src[at : at+end]
}

// eat takes w, a rendered word made bare, from the words: the whole of
// the next word or a first part of it.
func (t *tokens) eat(w string) bool {
	if t.rest == "" {
		at := t.next()
		if at < 0 {
			return w == ""
		}
		word := t.word(at)
		t.rest, t.off = bare(word), at+len(word)
	}
	if !strings.HasPrefix(t.rest, w) {
		return false
	}
	t.rest = t.rest[len(w):]
	return true
}

// bare is a word without the marks of emphasis, code and escapes.
func bare(w string) string {
	if !strings.ContainsAny(w, "*_`~\\") {
		return w
	}
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("*_`~\\", r) {
			return -1
		}
		return r
	}, w)
}

// startsLine says whether a line of a paragraph may start with word w
// when it is rendered alone, as the rest of the paragraph, and read as
// a paragraph still: a letter or a digit, perhaps behind the marks of
// emphasis or a code span ("**Point", "`x`"), but not a list's number
// ("3." would open a list) nor a fence's backticks.
func startsLine(w string) bool {
	marks := len(w) - len(strings.TrimLeft(w, "*_`"))
	if strings.HasPrefix(w, "```") {
		return false
	}
	w = w[marks:]
	r, _ := utf8.DecodeRuneInString(w)
	switch {
	case unicode.IsLetter(r):
		return true
	case unicode.IsDigit(r):
		d := strings.TrimLeftFunc(w, unicode.IsDigit)
		return !(d != "" && (d[0] == '.' || d[0] == ')'))
	}
	return false
}

// isParagraph says whether a piece whose first line is ln is a paragraph
// (not a heading, quote, list, table, code, HTML or a rule), so that
// Stream can lay it out a line at a time.
func isParagraph(ln string) bool {
	t := strings.TrimLeft(ln, " ")
	if t == "" || len(ln)-len(t) >= 4 || isItem(t) || FenceOf(t) != "" {
		return false
	}
	switch t[0] {
	case '#', '>', '|', '<', '=', '-', '+', '~', '[', '!':
		return false
	case '*', '_':
		return strings.Trim(t, "*_ \n") != ""
	}
	return true
}

// codeOpen says whether code, the lines of a code block, leaves open a
// construct that spans lines and that a highlighter reads whole: a block
// comment, a raw or template string (backticks), a triple-quoted string,
// an HTML comment. Lines after one are highlighted with it, not alone.
func codeOpen(code string) bool {
	return strings.Count(code, "/*") > strings.Count(code, "*/") ||
		strings.Count(code, "`")%2 == 1 ||
		strings.Count(code, `"""`)%2 == 1 || strings.Count(code, "'''")%2 == 1 ||
		strings.Count(code, "<!--") > strings.Count(code, "-->")
}
