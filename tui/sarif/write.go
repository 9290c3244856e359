package sarif

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/arenadebate/arena/challengers/trust"
)

// schemaFile is the SARIF 2.1.0 JSON Schema as OASIS publishes it
// (sarif-2.1/schema/sarif-schema-2.1.0.json of oasis-tcs/sarif-spec).
//
//go:embed sarif-schema-2.1.0.json
var schemaFile []byte

// schema is the standard's schema, resolved by google/jsonschema-go. The
// file states JSON Schema draft-04, which the library does not read; the
// keywords it uses are draft-07's too, but for "id", which draft-07
// spells "$id": those two are changed, nothing else.
var schema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	var raw map[string]any
	if err := json.Unmarshal(schemaFile, &raw); err != nil {
		return nil, err
	}
	raw["$schema"] = "http://json-schema.org/draft-07/schema#"
	raw["$id"] = raw["id"]
	delete(raw, "id")
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
})

// Validate checks SARIF against the SARIF 2.1.0 JSON Schema.
func Validate(data []byte) error {
	r, err := schema()
	if err != nil {
		return fmt.Errorf("the SARIF 2.1.0 schema: %w", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return r.Validate(v)
}

// Marshal is the log as arena writes it: indented JSON, cleaned
// (trust.CleanJSON), checked against the schema.
func Marshal(l Log) ([]byte, error) {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return nil, err
	}
	b = append(trust.CleanJSON(b), '\n')
	if err := Validate(b); err != nil {
		return nil, fmt.Errorf("arena made SARIF its schema refuses (a bug): %w", err)
	}
	return b, nil
}

// Write writes the log to a new file at path: never over a file already
// there, nor through a symbolic link (trust.WriteExclusive).
func Write(path string, l Log) error {
	b, err := Marshal(l)
	if err != nil {
		return err
	}
	if err := trust.WriteExclusive(path, b); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists: arena writes SARIF to a new file only (remove it, or name another)", path)
		}
		return err
	}
	return nil
}
