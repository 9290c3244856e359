package main

import (
	"slices"
	"strconv"
	"strings"
)

// opt is one command-line option of an impersonated CLI. The three real
// CLIs use three argument parsers (commander, yargs, clap); they agree on
// the grammar the fakes need (--long, --long=value, -s, -sVALUE, clustered
// switches, "--") and differ in their error messages, which each CLI's file
// formats from a flagErr.
type opt struct {
	name    string   // canonical long name, without dashes
	aliases []string // other long names
	short   byte     // 0: none
	arg     string   // metavar ("<format>") for an option with a value; "" for a switch
	choices []string
}

// parsed holds the options found, by canonical name, and the positionals.
type parsed struct {
	vals map[string][]string
	pos  []string
}

func (p parsed) has(name string) bool { return len(p.vals[name]) > 0 }

// get returns the last value given for name, as every parser here does
// when an option is repeated.
func (p parsed) get(name string) string {
	v := p.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

type flagErrKind int

const (
	errUnknown flagErrKind = iota // option not defined
	errMissing                    // option needs a value, none given
	errChoice                     // value not among the choices
)

type flagErr struct {
	kind  flagErrKind
	opt   *opt
	arg   string // the offending argument (errUnknown) or value (errChoice)
	short bool   // the option was spelled with its short name
}

// flagParser parses one CLI's arguments.
type flagParser struct {
	opts []opt
	// yargs takes "-p -o" as two options and reports -p's value missing;
	// commander and clap take "-o" as -p's value.
	valueMayNotLookLikeFlag bool
	// stopAtPositional leaves the first positional and everything after
	// it unparsed, for a command whose subcommand has its own options.
	stopAtPositional bool
}

func (fp flagParser) parse(argv []string) (parsed, *flagErr) {
	p := parsed{vals: map[string][]string{}}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		var err *flagErr
		switch {
		case a == "--":
			p.pos = append(p.pos, argv[i+1:]...)
			return p, nil
		case strings.HasPrefix(a, "--"):
			i, err = fp.long(argv, i, &p)
		case len(a) > 1 && a[0] == '-':
			i, err = fp.shorts(argv, i, &p)
		case fp.stopAtPositional:
			p.pos = append(p.pos, argv[i:]...)
			return p, nil
		default:
			p.pos = append(p.pos, a)
		}
		if err != nil {
			return p, err
		}
	}
	return p, nil
}

// long handles argv[i], a "--name" or "--name=value" argument, and returns
// the index of the last argument it used.
func (fp flagParser) long(argv []string, i int, p *parsed) (int, *flagErr) {
	name, val, hasVal := strings.Cut(argv[i][2:], "=")
	o := fp.lookup(func(o *opt) bool { return o.name == name || slices.Contains(o.aliases, name) })
	if o == nil || (o.arg == "" && hasVal) {
		return i, &flagErr{kind: errUnknown, arg: argv[i]}
	}
	if o.arg == "" {
		p.vals[o.name] = append(p.vals[o.name], "true")
		return i, nil
	}
	if !hasVal {
		var err *flagErr
		if i, val, err = fp.next(argv, i, o, false); err != nil {
			return i, err
		}
	}
	return i, fp.set(p, o, val, false)
}

// shorts handles a cluster of short options such as "-yp" or "-mMODEL".
func (fp flagParser) shorts(argv []string, i int, p *parsed) (int, *flagErr) {
	a := argv[i]
	for j := 1; j < len(a); j++ {
		o := fp.lookup(func(o *opt) bool { return o.short == a[j] })
		if o == nil {
			return i, &flagErr{kind: errUnknown, arg: "-" + a[j:], short: true}
		}
		if o.arg == "" {
			p.vals[o.name] = append(p.vals[o.name], "true")
			continue
		}
		val := strings.TrimPrefix(a[j+1:], "=")
		if j+1 == len(a) {
			var err *flagErr
			if i, val, err = fp.next(argv, i, o, true); err != nil {
				return i, err
			}
		}
		return i, fp.set(p, o, val, true)
	}
	return i, nil
}

// next takes the argument after argv[i] as o's value.
func (fp flagParser) next(argv []string, i int, o *opt, short bool) (int, string, *flagErr) {
	if i+1 >= len(argv) || (fp.valueMayNotLookLikeFlag && looksLikeFlag(argv[i+1])) {
		return i, "", &flagErr{kind: errMissing, opt: o, short: short}
	}
	return i + 1, argv[i+1], nil
}

func (fp flagParser) set(p *parsed, o *opt, val string, short bool) *flagErr {
	if len(o.choices) > 0 && !slices.Contains(o.choices, val) {
		return &flagErr{kind: errChoice, opt: o, arg: val, short: short}
	}
	p.vals[o.name] = append(p.vals[o.name], val)
	return nil
}

func (fp flagParser) lookup(match func(*opt) bool) *opt {
	for i := range fp.opts {
		if match(&fp.opts[i]) {
			return &fp.opts[i]
		}
	}
	return nil
}

// looksLikeFlag is yargs' test: a dash and something that is not a number.
func looksLikeFlag(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err != nil
}
