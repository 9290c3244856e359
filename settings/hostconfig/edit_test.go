package hostconfig

import (
	"errors"
	"testing"
)

// Byte in, byte out: each editor against the configurations people have,
// the output written out whole. The entries are those Host.Entry makes
// for Claude Code and Codex.

var (
	claudeEntry = Entry{Type: "stdio", Command: "/usr/local/bin/arena", Args: []string{"mcp"}, Env: map[string]string{HostEnv: "claude"}}
	codexEntry  = Entry{Command: "/usr/local/bin/arena", Args: []string{"mcp"}, Env: map[string]string{HostEnv: "codex"}}
)

type editCase struct {
	name, in, want string
	state          State
}

type refusalCase struct{ name, in, want string }

var jsonEdits = []editCase{
	{"no file", "",
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	{"blank", " \n",
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	{"empty object", "{}\n",
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	{"no final newline", `{
  "theme": "dark"
}`,
		`{
  "theme": "dark",
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}`, Added},
	{"other servers", `{
  "mcpServers": {
    "github": {"command": "gh-mcp"}
  }
}
`,
		`{
  "mcpServers": {
    "github": {"command": "gh-mcp"},
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	{"no servers yet", `{
  "mcpServers": {}
}
`,
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	{"tabs, as Claude Code writes", "{\n\t\"numStartups\": 12,\n\t\"mcpServers\": {\n\t\t\"github\": {\"type\": \"stdio\", \"command\": \"gh-mcp\", \"args\": []}\n\t},\n\t\"projects\": {}\n}\n",
		"{\n\t\"numStartups\": 12,\n\t\"mcpServers\": {\n\t\t\"github\": {\"type\": \"stdio\", \"command\": \"gh-mcp\", \"args\": []},\n\t\t\"arena\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"/usr/local/bin/arena\",\n\t\t\t\"args\": [\n\t\t\t\t\"mcp\"\n\t\t\t],\n\t\t\t\"env\": {\n\t\t\t\t\"ARENA_MCP_HOST\": \"claude\"\n\t\t\t}\n\t\t}\n\t},\n\t\"projects\": {}\n}\n", Added},
	{"odd indentation", `{
   "theme": "dark",
      "mcpServers": {
  "a": {"command": "a"}   }
}
`,
		`{
   "theme": "dark",
      "mcpServers": {
  "a": {"command": "a"},
      "arena": {
         "type": "stdio",
         "command": "/usr/local/bin/arena",
         "args": [
            "mcp"
         ],
         "env": {
            "ARENA_MCP_HOST": "claude"
         }
      }   }
}
`, Added},
	{"one line", "{\"theme\":\"dark\",\"mcpServers\":{\"a\":{\"command\":\"a\"}}}",
		`{"theme":"dark","mcpServers":{"a":{"command":"a"},
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }}}`, Added},
	{"one line without servers", "{\"theme\": \"dark\"}\n",
		`{"theme": "dark",
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }}
`, Added},
	{"escapes and non-ASCII kept", `{
  "name": "ünïcode — \u00e9",
  "mcpServers": {
    "a": {"command": "a"}
  }
}
`,
		`{
  "name": "ünïcode — \u00e9",
  "mcpServers": {
    "a": {"command": "a"},
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Added},
	// The person's lines keep their CRLF; arena's lines end in \n alone,
	// which every JSON reader takes as the same.
	{"CRLF", "{\r\n  \"theme\": \"dark\",\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"a\"}\r\n  }\r\n}\r\n",
		"{\r\n  \"theme\": \"dark\",\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"a\"},\n    \"arena\": {\n      \"type\": \"stdio\",\n      \"command\": \"/usr/local/bin/arena\",\n      \"args\": [\n        \"mcp\"\n      ],\n      \"env\": {\n        \"ARENA_MCP_HOST\": \"claude\"\n      }\n    }\r\n  }\r\n}\r\n", Added},
	{"arena's entry as it would write it", `{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`,
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    }
  }
}
`, Unchanged},
	{"arena's entry, another binary", `{
  "mcpServers": {
    "arena": {"command": "/old/arena", "args": ["mcp"], "env": {"ARENA_MCP_HOST": "claude"}},
    "z": {"command": "z"}
  }
}
`,
		`{
  "mcpServers": {
    "arena": {
      "type": "stdio",
      "command": "/usr/local/bin/arena",
      "args": [
        "mcp"
      ],
      "env": {
        "ARENA_MCP_HOST": "claude"
      }
    },
    "z": {"command": "z"}
  }
}
`, Updated},
}

func TestEditJSON(t *testing.T) {
	for _, c := range jsonEdits {
		t.Run(c.name, func(t *testing.T) {
			got, state, err := EditJSON([]byte(c.in), "mcpServers", "arena", claudeEntry)
			checkEdit(t, c, got, state, err)
		})
	}
}

var jsonRefusals = []refusalCase{
	{"an arena entry arena did not write", `{
  "mcpServers": {
    "arena": {"command": "/opt/arena-fork", "args": ["serve"]}
  }
}
`,
		"not written by arena install: {\"command\": \"/opt/arena-fork\", \"args\": [\"serve\"]}"},
	{"comments", `{
  // my servers
  "mcpServers": {}
}
`,
		"it is not plain JSON (invalid character '/' looking for beginning of object key string); arena edits only files it can read back whole"},
	{"servers not an object", `{
  "mcpServers": ["a"]
}
`,
		"its \"mcpServers\" is not an object"},
	{"not an object", "[1, 2]\n",
		"it is not plain JSON (json: cannot unmarshal array into Go value of type map[string]interface {}); arena edits only files it can read back whole"},
	// Which of two "mcpServers" counts is up to the reader (Go's and
	// JavaScript's take the last, others the first): an edit of one
	// could be an edit of nothing.
	{"a key twice", `{
  "mcpServers": {"docs": {"command": "docs"}},
  "theme": "dark",
  "mcpServers": {}
}
`,
		"it has the key \"mcpServers\" twice in one object, and programs differ on which one counts; remove one, then try again"},
	{"a key twice, deeper", `{"projects": {"/a": {"x": 1, "y": [{"k": 1, "k": 2}]}}}`,
		"it has the key \"k\" twice in one object, and programs differ on which one counts; remove one, then try again"},
}

func TestEditJSONRefuses(t *testing.T) {
	for _, c := range jsonRefusals {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := EditJSON([]byte(c.in), "mcpServers", "arena", claudeEntry)
			checkRefusal(t, c, got, err)
		})
	}
}

var tomlEdits = []editCase{
	{"no file", "",
		`[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	{"settings", "model = \"gpt-5-codex\"\n",
		`model = "gpt-5-codex"

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	{"no final newline", "model = \"gpt-5-codex\"",
		`model = "gpt-5-codex"

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	{"other servers", `# my codex settings
model = "gpt-5-codex"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`,
		`# my codex settings
model = "gpt-5-codex"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	{"servers in dotted keys", "mcp_servers.other.command = \"x\"\n",
		`mcp_servers.other.command = "x"

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	{"servers as inline tables", `[mcp_servers]
other = { command = "x" }
`,
		`[mcp_servers]
other = { command = "x" }

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Added},
	// As in JSON: the other lines keep their CRLF, arena's have \n.
	{"CRLF", "model = \"o3\"\r\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n",
		"model = \"o3\"\r\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n\n[mcp_servers.arena]\ncommand = \"/usr/local/bin/arena\"\nargs = [\"mcp\"]\nenv = { ARENA_MCP_HOST = \"codex\" }\n", Added},
	{"arena's entry as it would write it", `[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`,
		`[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Unchanged},
	{"arena's entry, another binary", `# my codex settings
model = "gpt-5-codex"

[mcp_servers.arena]
command = "/old/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }

# the docs server
[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`,
		`# my codex settings
model = "gpt-5-codex"

[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }

# the docs server
[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`, Updated},
	{"arena's entry with a sub-table", `[mcp_servers.arena]
command = "/old/arena"
args = ["mcp"]

[mcp_servers.arena.env]
ARENA_MCP_HOST = "codex"

[profiles.fast]
model = "o4-mini"
`,
		`[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }

[profiles.fast]
model = "o4-mini"
`, Updated},
	{"arena's entry, its header quoted and commented", `# mine
[ mcp_servers . 'arena' ]  # arena's
command = "/old/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`,
		`# mine
[mcp_servers.arena]
command = "/usr/local/bin/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`, Updated},
	{"arena's entry, its header commented, CRLF", "[mcp_servers.arena] # arena's\r\ncommand = \"/old/arena\"\r\nargs = [\"mcp\"]\r\nenv = { ARENA_MCP_HOST = \"codex\" }\r\n",
		"[mcp_servers.arena]\ncommand = \"/usr/local/bin/arena\"\nargs = [\"mcp\"]\nenv = { ARENA_MCP_HOST = \"codex\" }\n", Updated},
	{"arena's entry, CRLF", "model = \"o3\"\r\n\r\n[mcp_servers.arena]\r\ncommand = \"/old/arena\"\r\nargs = [\"mcp\"]\r\nenv = { ARENA_MCP_HOST = \"codex\" }\r\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n",
		"model = \"o3\"\r\n\r\n[mcp_servers.arena]\ncommand = \"/usr/local/bin/arena\"\nargs = [\"mcp\"]\nenv = { ARENA_MCP_HOST = \"codex\" }\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\n", Updated},
}

func TestEditTOML(t *testing.T) {
	for _, c := range tomlEdits {
		t.Run(c.name, func(t *testing.T) {
			got, state, err := EditTOML([]byte(c.in), codexEntry)
			checkEdit(t, c, got, state, err)
		})
	}
}

var tomlRefusals = []refusalCase{
	{"an arena entry arena did not write", `[mcp_servers.arena]
command = "/opt/arena-fork"
args = ["serve"]
`,
		"not written by arena install: {\"args\":[\"serve\"],\"command\":\"/opt/arena-fork\"}"},
	{"arena's entry inline", `[mcp_servers]
arena = { command = "/old/arena", args = ["mcp"], env = { ARENA_MCP_HOST = "codex" } }
`,
		"arena's entry is not written as a [mcp_servers.arena] table; edit it by hand"},
	// An inline table is complete in itself (TOML 1.0 and 1.1): a
	// table header cannot add to it, though a lenient reader
	// (BurntSushi/toml v1.6.0) reads one that does.
	{"servers inline", "mcp_servers = { other = { command = \"x\" } }\n",
		"adding arena's [mcp_servers.arena] table would make it invalid TOML (toml: line 3, column 2: key mcp_servers already exists as a value)"},
	{"no servers, inline", "mcp_servers = {}\n",
		"adding arena's [mcp_servers.arena] table would make it invalid TOML (toml: line 3, column 2: key mcp_servers already exists as a value)"},
	{"servers inline, and arena's table after them", `mcp_servers = { other = { command = "x" } }

[mcp_servers.arena]
command = "/old/arena"
args = ["mcp"]
env = { ARENA_MCP_HOST = "codex" }
`,
		"it is not valid TOML (toml: line 3, column 2: key mcp_servers already exists as a value)"},
	{"not TOML", "[mcp_servers.x\ncommand = \n",
		"it is not valid TOML (toml: line 1, column 15: expected ']' to close table name)"},
}

func TestEditTOMLRefuses(t *testing.T) {
	for _, c := range tomlRefusals {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := EditTOML([]byte(c.in), codexEntry)
			checkRefusal(t, c, got, err)
		})
	}
}

func checkEdit(t *testing.T, c editCase, got []byte, state State, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != c.want || state != c.state {
		t.Errorf("state %d, got\n%q\nwant state %d,\n%q", state, got, c.state, c.want)
	}
}

// checkRefusal: nothing to write, the reason as said, and an entry of
// another's told apart from the rest.
func checkRefusal(t *testing.T, c refusalCase, got []byte, err error) {
	t.Helper()
	if err == nil || got != nil {
		t.Fatalf("edited:\n%s", got)
	}
	if err.Error() != c.want {
		t.Errorf("got  %q\nwant %q", err, c.want)
	}
	if mine := errors.Is(err, ErrNotOurs); mine != (c.name == "an arena entry arena did not write") {
		t.Errorf("errors.Is(err, ErrNotOurs) = %v", mine)
	}
}

// A key counts twice only within one object: the same key in sibling
// objects, in an array's objects, or as a value, is no repeat.
func TestDuplicateKey(t *testing.T) {
	for doc, want := range map[string]string{
		`{"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}], "d": "a"}`: "",
		`{"a": ["a", "a"], "b": {"a": {"a": {}}}}`:                            "",
		`{"a": {"k": 1, "x": [1, {"y": 2}], "k": 2}}`:                         "k",
		`[{"a": 1}, {"b": 1, "b": 2}]`:                                        "b",
		`{"a": [], "a": []}`:                                                  "a",
	} {
		if got, twice := duplicateKey([]byte(doc)); got != want || twice != (want != "") {
			t.Errorf("%s: %q %v, want %q", doc, got, twice, want)
		}
	}
}
