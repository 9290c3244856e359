package main

import (
	"fmt"
	"os"
)

// The moderator is the person running arena: a note they give reaches
// every seat's next prompt. Notes come from the live screen's input line
// (m) and, headless, from --moderate FILE, which engine.FollowNotes reads
// line by line as it is written.

// moderateFile is the --moderate flag: a file or fifo that must exist.
type moderateFile string

func (m *moderateFile) String() string { return string(*m) }
func (m *moderateFile) Type() string   { return "FILE" }
func (m *moderateFile) Set(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	*m = moderateFile(path)
	return nil
}
