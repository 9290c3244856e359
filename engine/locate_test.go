package engine

import "testing"

// A quote is placed in the file that holds it, on the line it begins on;
// in a diff, in the changed file's new version (a hunk's kept and added
// lines, numbered from its header), never in a removed line; a quote
// nowhere gets no place.
func TestLocateReadsFilesAndDiffs(t *testing.T) {
	diff := "diff --git a/old.go b/main.go\n" +
		"index 1..2 100644\n" +
		"--- a/old.go\n" +
		"+++ b/main.go\n" +
		"@@ -10,4 +20,5 @@ func main() {\n" +
		" \tx := 1\n" +
		"-\tgone := true\n" +
		"+\tif err != nil {\n" +
		"+\t\treturn err\n" +
		"+\t}\n" +
		" \treturn nil\n" +
		"diff --git a/x.txt b/x.txt\n" +
		"--- a/x.txt\n" +
		"+++ b/x.txt\n" +
		"@@ -1 +1,2 @@\n" +
		"+first\n" +
		" second line\n"
	files := []Doc{{Name: "notes.md", Content: "intro\n\nthe  quoted\n  words here\n"}, {Name: "stdin", Content: diff}}
	for _, c := range []struct {
		quote string
		file  string
		line  int
	}{
		{"quoted words", "notes.md", 3},
		{"`words here`", "notes.md", 4},
		{"return err", "main.go", 22},
		{"+\t\treturn err\n+\t}", "main.go", 22},
		{"if err != nil { return err } … return nil", "main.go", 21},
		{"x := 1", "main.go", 20},
		{"second line", "x.txt", 2},
		{"gone := true", "", 0},
		{"not anywhere", "", 0},
		{"   ", "", 0},
	} {
		file, line := Locate(files, c.quote)
		if file != c.file || line != c.line {
			t.Errorf("Locate(%q) = %s:%d, want %s:%d", c.quote, file, line, c.file, c.line)
		}
	}
}
