package adversarial

import (
	"fmt"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Request is a debate as it is asked for (engine.Request): the topic, as
// text or from a file ("-": stdin), and the files the debate is about.
type Request struct {
	Topic     string   `json:"topic,omitempty" arg:"all" mcp:"required" about:"the question or decision to debate"`
	TopicFile string   `json:"file,omitempty" flag:"file,f" mcp:"-" help:"read the topic from FILE (\"-\" for stdin)"`
	Context   []string `json:"context,omitempty" flag:"context,repeat" help:"attach a file the debate is about (repeatable)" about:"files the debate is about, attached to every prompt (paths relative to the server's directory)"`
}

func newRequest() engine.Request { return &Request{} }

// Prepare reads the topic and the context files, and seats the defender
// and the challengers of the settings.
func (r *Request) Prepare(s engine.Setup) (*engine.Prepared, error) {
	var args []string
	if r.Topic != "" {
		args = []string{r.Topic}
	}
	topic, err := inputs.Topic(r.TopicFile, args, inputs.Options{Stdin: s.Stdin, IncludeSecrets: s.IncludeSecrets})
	if err != nil {
		return nil, err
	}
	docs, err := inputs.Context(r.Context, s.IncludeSecrets)
	if err != nil {
		return nil, err
	}
	if s.NoChallengers != "" {
		s.Warn(s.NoChallengers) // a debate needs them; other protocols do not
	}
	cfg := Config{
		ID: engine.Slug(topic, 40), Topic: topic, Context: docs,
		MaxRounds: s.MaxRounds, Timeout: s.Timeout, Skeptical: s.Skeptical,
	}
	def, ok := s.Roster.Agents[s.Defender]
	if !ok {
		return nil, fmt.Errorf("defender %q has no agent definition", s.Defender)
	}
	cfg.Defender = def
	for _, name := range s.Challengers {
		c, ok := s.Roster.Agents[name]
		if !ok {
			return nil, fmt.Errorf("challenger %q has no agent definition", name)
		}
		cfg.Challengers = append(cfg.Challengers, c)
	}
	seats := append([]challengers.Agent{def}, cfg.Challengers...)
	if err := s.Quorum("defender and challengers", seats); err != nil {
		return nil, err
	}
	s.NoteSeats(seating.SameFamily(seats)...)
	return &engine.Prepared{Protocol: New(cfg), Name: topic}, nil
}
