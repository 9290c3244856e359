package challengers

import (
	"strings"
	"testing"
)

const scrubKey = "sk-or-v1-scrub-0123456789abcdef"

func testScrubber() *scrubber {
	return newScrubber(Agent{KeyEnv: "OPENROUTER_API_KEY", BaseURL: "https://gw.example/v1?api_key=gw-secret-42424242&v=2"}, scrubKey)
}

// Every way of cutting a text into two or three pieces streams the same
// text as scrubbing it whole: no secret shows, however it is split, and
// nothing is lost at the end.
func TestScrubStreamHidesSecretsSplitAcrossPieces(t *testing.T) {
	s := testScrubber()
	for _, text := range []string{
		"the key is " + scrubKey + ", and the gateway's gw-secret-42424242.",
		scrubKey,
		"ends in the key's first bytes sk-or-v1-scr",
		"sk-or-v1-sk-or-v1-scrub-0123456789abcdef sk-or",
		"no secret at all, but s",
	} {
		want := s.scrub(text)
		if strings.Contains(want, scrubKey) || strings.Contains(want, "gw-secret-42424242") {
			t.Fatalf("scrub(%q) = %q", text, want)
		}
		for i := 0; i <= len(text); i++ {
			for j := i; j <= len(text); j++ {
				w := scrubStream{s: s}
				var out []string
				for _, piece := range []string{text[:i], text[i:j], text[j:]} {
					out = append(out, w.Write(piece))
					if len(w.tail) >= s.longest {
						t.Fatalf("held back %d bytes, more than the longest secret less one", len(w.tail))
					}
				}
				out = append(out, w.Flush())
				if got := strings.Join(out, ""); got != want {
					t.Fatalf("%q cut at %d and %d streams %q, want %q", text, i, j, got, want)
				}
			}
		}
	}
}

// Only what could begin a secret is held back: plain text streams at once.
func TestScrubStreamHoldsBackOnlyASecretsBeginning(t *testing.T) {
	w := scrubStream{s: testScrubber()}
	if got := w.Write("plain words, "); got != "plain words, " {
		t.Fatalf("held back %q of plain text", "plain words, "[len(got):])
	}
	if got := w.Write("then sk-or-v1"); got != "then " {
		t.Fatalf("released %q: the key's first bytes should wait", got)
	}
	if got := w.Write("-but-not-the-key"); got != "sk-or-v1-but-not-the-key" {
		t.Fatalf("released %q", got)
	}
}

// Overlapping secrets are one stretch, shown as one label.
func TestScrubOverlappingSecrets(t *testing.T) {
	s := newScrubber(Agent{KeyEnv: "K", BaseURL: "http://h/v1?a=0123456789ab"}, "89abcdefghij")
	if got := s.scrub("x0123456789abcdefghijy"); got != "x[REDACTED: a secret of base_url]y" {
		t.Fatalf("got %q", got)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://openrouter.ai/api/v1":                      "https://openrouter.ai/api/v1",
		"https://gw.example/v1?key=sk-secret&api-version=1": "https://gw.example/v1?key=REDACTED&api-version=REDACTED",
		"https://user:sk-secret@gw.example/v1":              "https://REDACTED@gw.example/v1",
		"https://sk-secret@gw.example/v1#sk-secret":         "https://REDACTED@gw.example/v1#REDACTED",
		"http://gw.example/v1?sk-secret":                    "http://gw.example/v1?REDACTED",
		"http://bad host/v1?key=sk-secret":                  "http://bad host/v1?REDACTED",
		"http://u:sk-secret@%zz/v1":                         "REDACTED@%zz/v1",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
