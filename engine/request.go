package engine

import (
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
)

// Request is a protocol's typed request: what one of its runs is asked
// for, as a struct whose fields are its inputs. The command line fills it
// from flags and arguments, arena mcp from a tool call's arguments, and
// arena resume from the log, which records it; nothing below the command
// line sees a flag or an argument. Its fields' tags say how each is given
// (FieldsOf).
type Request interface {
	// Prepare checks the request, reads what it names, seats its agents
	// and builds its run, with what the caller's settings give (Setup). A
	// mistake in the request matches inputs.ErrInput, a seat that cannot
	// be filled as asked seating.ErrSeat: the person's to fix.
	Prepare(Setup) (*Prepared, error)
}

// Setup is what a request is prepared with: the settings of the person
// who runs it (never those a log or a caller names), and the run's
// plumbing.
type Setup struct {
	// Roster is who can sit: the pool (the defender, then the
	// challengers), every agent, and the config file's seats.
	Roster      seating.Roster
	Defender    string
	Challengers []string
	// NoChallengers says why there is no challenger, when there is none
	// (for a protocol that needs them to say).
	NoChallengers string
	// MaxRounds are the rounds the run may take: --max-rounds, else the
	// protocol's own default, else the settings'.
	MaxRounds int
	// Timeout is each seat's timeout per call (timeout_per_cli).
	Timeout   time.Duration
	Skeptical bool // skeptical_of_early_agreement
	// Value is one of the protocol's own config values (rank's
	// test_command), "" when not set.
	Value func(key string) string
	// Stdin is what "-" reads; IncludeSecrets sends files that look like
	// secrets anyway (the person's own say, never a log's).
	Stdin          io.Reader
	IncludeSecrets bool
	// LogDir is where the run's logs go, SaveLogs false when none is
	// saved; DryRun says the run is only shown.
	LogDir   string
	SaveLogs bool
	DryRun   bool
	// Resuming says the run resumes one its log holds, whose Resumed
	// events are Resumes.
	Resuming bool
	Resumes  []Event
	// Warn tells the person something about the request; NoteSeats warns
	// of what the seating said, and keeps it for the dry run and the
	// outcome.
	Warn      func(string)
	NoteSeats func(...string)
	// MinFamilies is how many vendor families the run's deciding seats
	// must span once the authors' are kept out (min_families; 0: any):
	// Quorum checks it.
	MinFamilies int
	// Swap are the agents arena resume --seat gives seats, by the seat's
	// or its agent's name: Quorum counts them in the seats' place.
	Swap map[string]challengers.Agent
	// Reaper starts what removes the run's temporary directories if
	// arena is killed: call it before making one.
	Reaper func()
}

// Picker is a seating.Picker of plan's seats from the roster, no seat of
// the pool going to exclude.
func (s Setup) Picker(plan seating.Plan, exclude ...string) *seating.Picker {
	r := s.Roster
	r.Exclude = exclude
	return seating.New(plan, r)
}

// Shared warns of each agent, and each vendor family, that p seated in
// several seats, and says what the author's family did to the seating.
func (s Setup) Shared(p *seating.Picker) {
	s.NoteSeats(p.Shared()...)
	s.NoteSeats(p.SameFamily()...)
	s.NoteSeats(p.Notes()...)
}

// Quorum refuses a run whose deciding seats (what names them: "judges")
// span fewer vendor families than MinFamilies once the families of the
// authors (agents' names; "" for none) are kept out, or, with an author,
// only the author's family: the error matches seating.ErrFamilies and
// names the families.
func (s Setup) Quorum(what string, seats []challengers.Agent, authors ...string) error {
	seats = s.swapped(seats)
	var out []challengers.Agent
	for _, n := range authors {
		if a, ok := s.Roster.Agents[n]; ok && n != "" {
			out = append(out, a)
		}
	}
	return seating.Quorum(s.MinFamilies, what, seats, out)
}

// swapped are the seats with Swap's agents in their place: an agent's
// replaced, and one given a seat by the seat's name added (the agent it
// replaces may hold other seats still).
func (s Setup) swapped(seats []challengers.Agent) []challengers.Agent {
	if len(s.Swap) == 0 {
		return seats
	}
	out := make([]challengers.Agent, 0, len(seats))
	names := map[string]bool{}
	for _, a := range seats {
		names[a.Name] = true
		if b, ok := s.Swap[a.Name]; ok {
			a = b
		}
		out = append(out, a)
	}
	for _, key := range slices.Sorted(maps.Keys(s.Swap)) {
		if !names[key] {
			out = append(out, s.Swap[key])
		}
	}
	return out
}

// Prepared is a request ready to run.
type Prepared struct {
	// Protocol is the run (for the dry run, and for the run itself when
	// Logged is nil).
	Protocol Protocol
	// Name is what the run's log is named after (the topic).
	Name string
	// Notes are what the dry run says besides the seats' notes.
	Notes []string
	// Logged, when set, is the run once its log's path is known ("" for
	// none): a verdict's id, a ranking's report beside it.
	Logged func(logPath string) Protocol
	// Record is the run's final record, once it has run (Tool.Record).
	Record func() any
	// Warnings are what went wrong beside the run, once it has run.
	Warnings func() []string
	// Said are the files the run wrote besides its log and document
	// (rank's JSON report), once it has run: named where the front end
	// lists no saved file (JSON Lines on stdout), each its own way.
	Said func() []Saved
	// Exit, when set, is the exit code of an outcome when the request
	// decides it (rank --expect-winner); false: the spec's.
	Exit func(Outcome) (int, bool)
	// Cleanup removes what preparing made (rank's exports); nil: nothing.
	Cleanup func()
}

// Field is one input of a request, as its struct tags declare it:
//
//	json:"name"          its name in the log and in arena mcp's tool
//	flag:"name,f,repeat" the command's flag, its shorthand, and for a list,
//	                     that the flag is repeated (commas kept) rather
//	                     than comma-separated; none: no flag
//	arg:"all|first|rest" the command's arguments it takes
//	help:"..."           the flag's help
//	about:"..."          the tool input's description, where the flag's
//	                     help does not fit an agent
//	mcp:"-|required"     not an input of the tool; or one it must be given
//	enum:"a,b,c"         the values it takes
//
// A field is a string, bool, int, uint64, float64, []string or Duration;
// a pointer to one of those is an input that may be left out, and is nil
// when it was.
type Field struct {
	Name, Flag, Short string
	Repeat            bool
	Arg               string
	Help, About       string
	Agents, Required  bool
	Enum              []string
	// Value is the field itself, settable.
	Value reflect.Value
}

// FieldsOf are req's inputs, in its struct's order. req is a pointer to a
// struct; a field without a json name is none.
func FieldsOf(req Request) []Field {
	v := reflect.ValueOf(req).Elem()
	var out []Field
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		f := Field{Name: name, Arg: sf.Tag.Get("arg"), Help: sf.Tag.Get("help"), About: sf.Tag.Get("about"), Value: v.Field(i)}
		if flag := sf.Tag.Get("flag"); flag != "" {
			parts := strings.Split(flag, ",")
			f.Flag = parts[0]
			for _, p := range parts[1:] {
				switch {
				case p == "repeat":
					f.Repeat = true
				case len(p) == 1:
					f.Short = p
				}
			}
		}
		mcp := sf.Tag.Get("mcp")
		f.Agents, f.Required = mcp != "-", mcp == "required"
		if e := sf.Tag.Get("enum"); e != "" {
			f.Enum = strings.Split(e, ",")
		}
		if f.About == "" {
			f.About = agentWords(f.Help)
		}
		out = append(out, f)
	}
	return out
}

// agentWords is a flag's help as an agent reads the input: what is said
// of the flag itself (that it repeats, that it is required) is the
// schema's.
func agentWords(help string) string {
	for _, cut := range []string{" (repeatable)", " (required)", ", comma-separated"} {
		help = strings.ReplaceAll(help, cut, "")
	}
	return help
}

// FieldKind is what a field holds.
type FieldKind int

const (
	FieldString FieldKind = iota
	FieldBool
	FieldInt
	FieldUint
	FieldFloat
	FieldStrings
	FieldDuration
)

var durationType = reflect.TypeFor[Duration]()

// Kind is what the field holds (a pointer's element's).
func (f Field) Kind() FieldKind {
	t := f.Value.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		return FieldDuration
	case t.Kind() == reflect.Bool:
		return FieldBool
	case t.Kind() == reflect.Int:
		return FieldInt
	case t.Kind() == reflect.Uint64:
		return FieldUint
	case t.Kind() == reflect.Float64:
		return FieldFloat
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return FieldStrings
	case t.Kind() == reflect.String:
		return FieldString
	}
	panic(fmt.Sprintf("request field %s: a %s is not an input", f.Name, t))
}

// Optional says the field may be left out: a pointer, nil when it was.
func (f Field) Optional() bool { return f.Value.Kind() == reflect.Pointer }

// Target is where the field's value is held, allocated for an optional
// field that was left out: a *string, *bool, *int, *uint64, *float64,
// *[]string or *Duration.
func (f Field) Target() any {
	if f.Optional() {
		if f.Value.IsNil() {
			f.Value.Set(reflect.New(f.Value.Type().Elem()))
		}
		return f.Value.Interface()
	}
	return f.Value.Addr().Interface()
}

// Given says whether the field holds anything: set, not empty, not zero.
func (f Field) Given() bool {
	if f.Optional() {
		return !f.Value.IsNil()
	}
	return !f.Value.IsZero() && !(f.Value.Kind() == reflect.Slice && f.Value.Len() == 0)
}

// String is the field's value as a flag's text; a list's items joined by
// commas.
func (f Field) String() string {
	v := f.Value
	if f.Optional() {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case []string:
		return strings.Join(x, ",")
	case Duration:
		return x.D().String()
	}
	return fmt.Sprint(v.Interface())
}
