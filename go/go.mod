module github.com/fastwire-fbe/fastwire/go

go 1.22
