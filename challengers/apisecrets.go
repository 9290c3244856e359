package challengers

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// What an API agent must never show: its key, and what its base_url holds
// in a user name, a password or a query string (a gateway's ?key=…). An
// endpoint may send any of them back, in an error body, in a model name,
// or in the reply itself, split across two chunks of the stream; and
// base_url is printed where the agent is described (dry run, doctor, the
// log's start event, errors). One scrubber takes them out of everything
// the endpoint sends, before anything is cut or shown, and RedactURL
// shows base_url without them.

// minScrubbed is the shortest secret looked for in what a server sends
// back: a shorter one is no secret, and would be found in ordinary words.
const minScrubbed = 8

// redacted stands for a value of base_url that is not shown.
const redacted = "REDACTED"

// secret is one value to take out of text, and what to put in its place.
type secret struct {
	value, label string
}

// scrubber takes an agent's secrets out of text. Its zero value (and a
// nil one) scrubs nothing.
type scrubber struct {
	secrets []secret // longest first
	longest int
}

// newScrubber is the scrubber for an API agent asked with key.
func newScrubber(a Agent, key string) *scrubber {
	s := &scrubber{}
	add := func(v, label string) {
		if len(v) < minScrubbed || slices.ContainsFunc(s.secrets, func(x secret) bool { return x.value == v }) {
			return
		}
		s.secrets = append(s.secrets, secret{value: v, label: label})
		s.longest = max(s.longest, len(v))
	}
	add(key, "[the key in "+a.KeyEnv+"]")
	for _, v := range urlSecrets(a.BaseURL) {
		add(v, "["+redacted+": a secret of base_url]")
	}
	slices.SortStableFunc(s.secrets, func(x, y secret) int { return cmp.Compare(len(y.value), len(x.value)) })
	return s
}

// urlSecrets are the values a base_url holds that are not shown: its user
// name and password, and each value of its query string and its fragment,
// both as written and decoded.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		// Whatever follows the scheme's "//" up to an "@", and whatever
		// follows a "?" or a "#".
		var out []string
		if i := strings.LastIndexByte(raw, '@'); i >= 0 {
			out = append(out, strings.TrimPrefix(raw[strings.Index(raw, "//")+1:i], "/"))
		}
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			out = append(out, strings.FieldsFunc(raw[i+1:], func(r rune) bool { return r == '&' || r == '=' || r == '#' })...)
		}
		return out
	}
	var out []string
	if u.User != nil {
		p, _ := u.User.Password()
		out = append(out, u.User.Username(), p, u.User.String())
	}
	for _, part := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		_, v, _ := strings.Cut(part, "=")
		out = append(out, v)
		if d, err := url.QueryUnescape(v); err == nil {
			out = append(out, d)
		}
	}
	return append(out, u.Fragment, u.RawFragment)
}

// RedactURL is a base_url as it may be shown: its user information, the
// values of its query string and its fragment replaced by REDACTED
// ("https://gw.example/v1?key=REDACTED"). A URL that does not parse shows
// only its scheme and host, as far as they can be told.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		s := raw
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i] + "?" + redacted
		}
		if i := strings.LastIndexByte(s, '@'); i >= 0 {
			s = redacted + s[i:]
		}
		return s
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		parts := strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' })
		for i, part := range parts {
			if k, _, ok := strings.Cut(part, "="); ok {
				parts[i] = k + "=" + redacted
			} else {
				parts[i] = redacted
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = redacted, ""
	}
	return u.String()
}

// scrub takes the secrets out of text: every stretch of it that one
// secret or several overlapping ones cover becomes one label.
func (s *scrubber) scrub(text string) string {
	if s == nil || len(s.secrets) == 0 || len(text) < minScrubbed {
		return text
	}
	type span struct{ start, end, sec int }
	var spans []span
	for j, sec := range s.secrets {
		for from := 0; ; {
			i := strings.Index(text[from:], sec.value)
			if i < 0 {
				break
			}
			spans = append(spans, span{from + i, from + i + len(sec.value), j})
			from += i + 1
		}
	}
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(x, y span) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(y.end, x.end)) })
	var b strings.Builder
	at := 0
	for i := 0; i < len(spans); {
		start, end, label := spans[i].start, spans[i].end, s.secrets[spans[i].sec].label
		for i++; i < len(spans) && spans[i].start <= end; i++ {
			end = max(end, spans[i].end)
		}
		b.WriteString(text[at:start])
		b.WriteString(label)
		at = end
	}
	b.WriteString(text[at:])
	return b.String()
}

// held is how much of text's end could be the beginning of a secret: the
// longest end of it that is a secret's first bytes (but not all of it).
func (s *scrubber) held(text string) int {
	n := 0
	for _, sec := range s.secrets {
		for k := min(len(sec.value)-1, len(text)); k > n; k-- {
			if strings.HasSuffix(text, sec.value[:k]) {
				n = k
				break
			}
		}
	}
	return n
}

// scrubStream scrubs a stream of text whose secrets may be split across
// its pieces: it holds back the end of a piece that could begin a secret
// (no more than the longest secret less one byte, and only while it could),
// and lets it go with the next piece or at the end.
type scrubStream struct {
	s    *scrubber
	tail string
}

// Write scrubs the next piece and returns what can be shown of it now.
func (w *scrubStream) Write(text string) string {
	if w.s == nil || len(w.s.secrets) == 0 {
		return text
	}
	out := w.s.scrub(w.tail + text)
	n := w.s.held(out)
	w.tail = out[len(out)-n:]
	return out[:len(out)-n]
}

// Flush returns what was held back: the stream has ended, and it holds
// no secret.
func (w *scrubStream) Flush() string {
	out := w.tail
	w.tail = ""
	return out
}
