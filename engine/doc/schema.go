package doc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaID is the outcome document's JSON Schema's $id: the file arena
// publishes it as, docs/outcome.schema.json.
const SchemaID = "https://github.com/arenadebate/arena/docs/outcome.schema.json"

// SchemaOf is the Document's JSON Schema, inferred from the type by
// google/jsonschema-go, with what its tags cannot say: a block holds
// exactly one of its kinds.
func SchemaOf() *jsonschema.Schema {
	s, err := jsonschema.For[Document](nil)
	if err != nil {
		panic("outcome document schema: " + err.Error())
	}
	block := s.Properties["sections"].Items.Properties["blocks"].Items
	block.MinProperties, block.MaxProperties = jsonschema.Ptr(1), jsonschema.Ptr(1)
	return s
}

var schemaDoc = sync.OnceValue(func() []byte {
	s := SchemaOf()
	s.Schema = "https://json-schema.org/draft/2020-12/schema"
	s.ID = SchemaID
	s.Title = "arena outcome document"
	s.Description = "The outcome of an arena run as data: the document each protocol builds once, with the sections arena adds " +
		"(what each agent cost, the budget, a resume, the moderator's notes, the seats). The Markdown file arena saves, " +
		"the screen, the printed run and MCP's structuredContent are renderings of it. Text fields hold Markdown inline text."
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("outcome document schema: " + err.Error())
	}
	return append(b, '\n')
})

// Schema is the published schema document (docs/outcome.schema.json).
func Schema() []byte { return bytes.Clone(schemaDoc()) }

var resolved = sync.OnceValue(func() *jsonschema.Resolved {
	var s jsonschema.Schema
	if err := json.Unmarshal(schemaDoc(), &s); err != nil {
		panic("outcome document schema: " + err.Error())
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic("outcome document schema: " + err.Error())
	}
	return r
})

// Validate checks a document's JSON against the schema.
func Validate(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return resolved().Validate(v)
}
