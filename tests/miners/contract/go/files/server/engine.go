package server

// Options of an engine.
type Options struct {
	Addr     string
	MaxBody  int64
	Timeouts Timeouts
	Name     string
}

// NewOptions returns the options an engine starts with.
func NewOptions(name string) *Options {
	return &Options{
		Addr:     ":8080",
		MaxBody:  32 << 20,
		Timeouts: Timeouts{Read: 30},
		Name:     name,
	}
}
