module fastwire.examples

go 1.22

require github.com/fastwire-fbe/fastwire/go v0.0.0

replace github.com/fastwire-fbe/fastwire/go => ../../go
