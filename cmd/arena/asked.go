package main

import (
	"fmt"
	"reflect"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
)

// What a run was asked with beside its request (engine.RunSettings), as
// its log records it: the settings' flags given, never --config,
// --log-dir or --no-log, which are the settings of whoever runs it.

// askedWith are the settings sf gives a run, as its log records them.
func askedWith(sf settings.Flags) engine.RunSettings {
	var rs engine.RunSettings
	if sf.Defender != nil {
		rs.Defender = *sf.Defender
	}
	rs.Challengers = sf.Challengers
	rs.MaxRounds, rs.MaxCalls, rs.MinFamilies = sf.MaxRounds, sf.MaxCalls, sf.MinFamilies
	if sf.Timeout != nil {
		rs.Timeout = *sf.Timeout
	}
	if sf.MaxCost != nil {
		rs.MaxCost = *sf.MaxCost
	}
	if sf.MaxTokens != nil {
		rs.MaxTokens = *sf.MaxTokens
	}
	return rs
}

// settingsOf are the settings' flags a run asked with rs gets.
func settingsOf(rs engine.RunSettings) settings.Flags {
	var sf settings.Flags
	str := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	sf.Defender, sf.Timeout, sf.MaxCost, sf.MaxTokens = str(rs.Defender), str(rs.Timeout), str(rs.MaxCost), str(rs.MaxTokens)
	sf.Challengers, sf.MaxRounds, sf.MaxCalls, sf.MinFamilies = rs.Challengers, rs.MaxRounds, rs.MaxCalls, rs.MinFamilies
	return sf
}

// commandLine is the command a person would type to ask p for req with
// rs, for a person to read (arena resume's plan): never parsed.
func commandLine(p engine.Spec, req engine.Request, rs engine.RunSettings) []string {
	args := []string{p.Command}
	flag := func(name, v string) { args = append(args, "--"+name+"="+v) }
	if rs.Defender != "" {
		flag("defender", rs.Defender)
	}
	for _, c := range rs.Challengers {
		flag("challengers", c)
	}
	if rs.MaxRounds != nil {
		flag("max-rounds", fmt.Sprint(*rs.MaxRounds))
	}
	if rs.Timeout != "" {
		flag("timeout", rs.Timeout)
	}
	if rs.MaxCost != "" {
		flag("max-cost", rs.MaxCost)
	}
	if rs.MaxCalls != nil {
		flag("max-calls", fmt.Sprint(*rs.MaxCalls))
	}
	if rs.MaxTokens != "" {
		flag("max-tokens", rs.MaxTokens)
	}
	if rs.MinFamilies != nil {
		flag("min-families", fmt.Sprint(*rs.MinFamilies))
	}
	defaults := engine.FieldsOf(p.New())
	var pos []string
	for i, f := range engine.FieldsOf(req) {
		if f.Arg != "" {
			pos = append(pos, fieldArgs(f)...)
			continue
		}
		if f.Flag == "" || !f.Given() || reflect.DeepEqual(f.Value.Interface(), defaults[i].Value.Interface()) {
			continue
		}
		switch list := f.Target().(type) {
		case *bool:
			args = append(args, "--"+f.Flag)
		case *[]string:
			if f.Repeat {
				for _, v := range *list {
					flag(f.Flag, v)
				}
				continue
			}
			flag(f.Flag, f.String())
		default:
			flag(f.Flag, f.String())
		}
	}
	if len(pos) > 0 {
		args = append(append(args, "--"), pos...)
	}
	return args
}

// fieldArgs are the arguments a field that takes them gives.
func fieldArgs(f engine.Field) []string {
	switch v := f.Target().(type) {
	case *string:
		if *v != "" {
			return []string{*v}
		}
	case *[]string:
		return *v
	}
	return nil
}
