package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// A protocol's command fills its typed request (engine.Request): each
// field its struct tags give a flag is bound to that flag, with the
// request's defaults as the flags' (engine.FieldsOf), and its arguments go
// to the fields that take them. Nothing below the command line sees a
// flag or an argument.

// bindRequest binds req's flags to fs.
func bindRequest(fs *pflag.FlagSet, req engine.Request) {
	for _, f := range engine.FieldsOf(req) {
		if f.Flag == "" {
			continue
		}
		if f.Optional() {
			fs.VarP(&optional{f: f}, f.Flag, f.Short, f.Help)
			continue
		}
		switch p := f.Target().(type) {
		case *string:
			fs.StringVarP(p, f.Flag, f.Short, *p, f.Help)
		case *bool:
			fs.BoolVarP(p, f.Flag, f.Short, *p, f.Help)
		case *int:
			fs.IntVarP(p, f.Flag, f.Short, *p, f.Help)
		case *uint64:
			fs.Uint64VarP(p, f.Flag, f.Short, *p, f.Help)
		case *float64:
			fs.Float64VarP(p, f.Flag, f.Short, *p, f.Help)
		case *[]string:
			if f.Repeat {
				fs.StringArrayVarP(p, f.Flag, f.Short, *p, f.Help)
			} else {
				fs.StringSliceVarP(p, f.Flag, f.Short, *p, f.Help)
			}
		case *engine.Duration:
			fs.VarP((*durationFlag)(p), f.Flag, f.Short, f.Help)
		}
	}
}

// requestArgs gives the command's arguments to the fields that take them:
// "all" (a text joined by spaces, for those who forget the quotes, or a
// list), "first" and "rest".
func requestArgs(req engine.Request, args []string) {
	for _, f := range engine.FieldsOf(req) {
		var take []string
		switch f.Arg {
		case "all":
			take = args
		case "first":
			take = args[:min(1, len(args))]
		case "rest":
			take = args[min(1, len(args)):]
		default:
			continue
		}
		switch p := f.Target().(type) {
		case *string:
			*p = strings.Join(take, " ")
		case *[]string:
			*p = append([]string(nil), take...)
		}
	}
}

// takesArgs says whether any of req's fields takes the command's
// arguments.
func takesArgs(req engine.Request) bool {
	for _, f := range engine.FieldsOf(req) {
		if f.Arg != "" {
			return true
		}
	}
	return false
}

// durationFlag is an engine.Duration as a flag: "90s", "10m".
type durationFlag engine.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }
func (d *durationFlag) Type() string   { return "duration" }

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*d = durationFlag(v)
	return nil
}

// optional is the flag of a field that may be left out: nil until the
// flag is given.
type optional struct{ f engine.Field }

func (o *optional) String() string { return o.f.String() }

func (o *optional) Type() string {
	switch o.f.Kind() {
	case engine.FieldInt:
		return "int"
	case engine.FieldFloat:
		return "float64"
	case engine.FieldBool:
		return "bool"
	}
	return "string"
}

func (o *optional) Set(s string) error {
	var err error
	switch p := o.f.Target().(type) {
	case *string:
		*p = s
	case *int:
		*p, err = strconv.Atoi(s)
	case *float64:
		*p, err = strconv.ParseFloat(s, 64)
	case *bool:
		*p, err = strconv.ParseBool(s)
	}
	return err
}

// decodeRequest reads data, a request as JSON (a log's, a tool call's),
// into a request of p: its fields alone, each of its type.
func decodeRequest(p protocol, data []byte) (engine.Request, error) {
	req := p.New()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(req)
	if err == nil && dec.More() {
		err = errors.New("more than one value")
	}
	if err != nil {
		return nil, fmt.Errorf("its request is not one of the %s protocol's: %s", p.Name, trust.Text(err.Error()))
	}
	return req, nil
}
