package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers/trust"
)

// document is one parsed settings file.
type document struct {
	path string
	// offset is the number of file lines before the YAML text, so node
	// lines (relative to the YAML) can be reported as file lines.
	offset int
	root   *yaml.Node // a mapping; nil for an empty document
}

// at is the file position of a node.
func (d *document) at(n *yaml.Node) origin {
	return origin{file: d.path, line: n.Line + d.offset}
}

// fail turns a value error into an *Error at the node, or at the node
// named by a nodeError (a bad element inside a list or mapping).
func (d *document) fail(n *yaml.Node, key string, err error) *Error {
	var ne *nodeError
	if errors.As(err, &ne) {
		n, err = ne.node, ne.err
	}
	return d.at(n).err(key, err.Error(), err)
}

// nodeError blames a node more precise than the one being decoded.
type nodeError struct {
	node *yaml.Node
	err  error
}

func (e *nodeError) Error() string { return e.err.Error() }
func (e *nodeError) Unwrap() error { return e.err }

// maxConfigBytes bounds a settings file: a config is a page of YAML.
const maxConfigBytes = 1 << 20

// readFile returns the file's bytes, or found=false when it does not
// exist. It reads through the one bounded reader: a FIFO or a device put
// where a config file goes is refused, not waited on or read forever.
func readFile(path string) (data []byte, found bool, err error) {
	data, err = trust.ReadFile(path, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		// The path is already in the prefix; keep only the reason.
		msg := err.Error()
		var ie *trust.InputError
		if errors.As(err, &ie) {
			msg = ie.Problem
		}
		return nil, true, &Error{File: path, Msg: msg, Err: err}
	}
	return data, true, nil
}

// parseYAML parses the YAML text of a file whose first offset lines were
// not YAML.
func parseYAML(path string, text []byte, offset int) (*document, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(text, &n); err != nil {
		return nil, syntaxError(path, offset, err)
	}
	d := &document{path: path, offset: offset}
	if len(n.Content) == 0 {
		return d, nil // empty, or only comments
	}
	root := resolve(n.Content[0])
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return d, nil
	case root.Kind != yaml.MappingNode:
		return nil, d.at(root).errorf("", "expected settings as \"key: value\" lines, found a %s", kindName(root))
	}
	d.root = root
	return d, nil
}

var yamlErrLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// syntaxError locates a yaml.v3 syntax error in the file. yaml.v3 reports
// parser errors (as opposed to scanner errors) with a 0-based line, and
// none at all on the first line; both are corrected here.
func syntaxError(path string, offset int, err error) error {
	m := yamlErrLine.FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{File: path, Msg: "invalid YAML: " + err.Error(), Err: err}
	}
	line, _ := strconv.Atoi(m[1]) // "" (no line) gives 0
	if isParserError(m[2]) {
		line++
	}
	if line > 0 {
		line += offset
	}
	return &Error{File: path, Line: line, Msg: "invalid YAML: " + m[2], Err: err}
}

func isParserError(msg string) bool {
	for _, p := range []string{"did not find expected", "found undefined tag handle", "found duplicate %", "found incompatible YAML document"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// frontMatter extracts the YAML between a first line of "---" and the next
// "---" line. found is false when the file does not open with "---"; a
// front matter that is never closed is an error, because everything after
// it would silently be read as settings.
func frontMatter(path string, data []byte) (text []byte, offset int, found bool, err error) {
	lines := strings.Split(string(data), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	lines[0] = strings.TrimPrefix(lines[0], "\ufeff")
	if !isDelimiter(lines[0]) {
		return nil, 0, false, nil
	}
	for i := 1; i < len(lines); i++ {
		if isDelimiter(lines[i]) {
			return []byte(strings.Join(lines[1:i], "\n")), 1, true, nil
		}
	}
	return nil, 0, true, &Error{File: path, Line: 1, Msg: "front matter opened here is never closed (add a --- line after the settings)"}
}

func isDelimiter(line string) bool {
	return strings.TrimRight(line, " \t") == "---"
}

// pair is one key and its value in a mapping.
type pair struct {
	key, val *yaml.Node
	name     string // the dotted key, e.g. "agents.llama.timeout"
}

// pairs lists a mapping's entries, refusing duplicate keys: yaml.v3 keeps
// both when parsing to nodes, and silently using the last would hide a
// mistake.
func (d *document) pairs(m *yaml.Node, prefix string) ([]pair, error) {
	firstLine := map[string]int{}
	var out []pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := resolve(m.Content[i]), resolve(m.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, d.at(k).errorf(strings.TrimSuffix(prefix, "."), "a key must be a plain name, found a %s", kindName(k))
		}
		name := prefix + k.Value
		if line, dup := firstLine[k.Value]; dup {
			return nil, d.at(k).errorf(name, "set twice (first at line %d)", line)
		}
		firstLine[k.Value] = d.at(k).line
		out = append(out, pair{key: k, val: v, name: name})
	}
	return out, nil
}

// resolve follows YAML aliases (*name) to the anchored node.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return fmt.Sprintf("value %q", n.Value)
	}
	return "document"
}
