package judge

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/trust/trusttest"
)

// A directory to judge is read beneath itself (issue 36, item 3): a
// tracked directory replaced by a link to ~/secrets, and an index entry
// ../victim/notes.txt, send nothing of what lies outside it to the
// judges, and each is named among what was not sent.
func TestLoadReadsNothingOutsideTheDirectory(t *testing.T) {
	r := trusttest.HostileRepo(t)
	for _, arg := range []string{r.Dir, r.Dir + "/", filepath.Join(r.Dir, "..", "repo")} {
		sol, err := Load([]string{arg}, nil, LoadOptions{Budget: DefaultBudget})
		if err != nil {
			t.Fatal(err)
		}
		var sent []string
		for _, f := range sol.Files {
			sent = append(sent, f.Name)
			if strings.Contains(f.Content, trusttest.BehindLink) || strings.Contains(f.Content, trusttest.OutsideRepo) {
				t.Errorf("%s: %s was sent, holding a file from outside the directory", arg, f.Name)
			}
		}
		if len(sent) != 2 || !strings.HasSuffix(sent[0], "main.go") || !strings.HasSuffix(sent[1], filepath.Join("src", "util.go")) {
			t.Errorf("%s: sent %q, want main.go and src/util.go", arg, sent)
		}
		skipped := strings.Join(sol.Skipped, "\n")
		for _, want := range []string{
			"/d/a.txt (is reached through a symbolic link (" + filepath.Clean(arg) + "/d), not followed)",
			"/../victim/notes.txt (is a path that leaves the tree)",
		} {
			if !strings.Contains(skipped, want) {
				t.Errorf("%s: skipped:\n%s\nwant %q among them", arg, skipped, want)
			}
		}
	}
}
