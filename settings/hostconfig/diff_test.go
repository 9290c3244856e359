package hostconfig

import "testing"

// What --dry-run shows: the lines that differ, two of context either side.
func TestDiff(t *testing.T) {
	for _, c := range []struct{ before, after, want string }{
		{"", "a\nb\n",
			"--- ~/.claude.json\n+++ ~/.claude.json (as arena would leave it)\n@@ -1 +1 @@\n+a\n+b\n \n"},
		{`{
  "mcpServers": {
    "github": {"command": "gh-mcp"}
  }
}
`, `{
  "mcpServers": {
    "github": {"command": "gh-mcp"},
    "arena": {"command": "arena"}
  }
}
`,
			`--- ~/.claude.json
+++ ~/.claude.json (as arena would leave it)
@@ -1 +1 @@
 {
   "mcpServers": {
-    "github": {"command": "gh-mcp"}
+    "github": {"command": "gh-mcp"},
+    "arena": {"command": "arena"}
   }
 }
`},
		{"1\n2\n3\n4\nold\n5\n6\n7\n", "1\n2\n3\n4\nnew\n5\n6\n7\n",
			`--- ~/.claude.json
+++ ~/.claude.json (as arena would leave it)
@@ -3 +3 @@
 3
 4
-old
+new
 5
 6
`},
		{"old\nx\n", "new\nx\n",
			"--- ~/.claude.json\n+++ ~/.claude.json (as arena would leave it)\n@@ -1 +1 @@\n-old\n+new\n x\n \n"},
		{"x\nold", "x\nnew",
			`--- ~/.claude.json
+++ ~/.claude.json (as arena would leave it)
@@ -1 +1 @@
 x
-old
+new
`},
		{"same\n", "same\n",
			"--- ~/.claude.json\n+++ ~/.claude.json (as arena would leave it)\n@@ -1 +1 @@\n same\n \n"},
	} {
		if got := Diff("~/.claude.json", []byte(c.before), []byte(c.after)); got != c.want {
			t.Errorf("%q → %q:\ngot\n%s\nwant\n%s", c.before, c.after, got, c.want)
		}
	}
}
