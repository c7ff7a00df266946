module github.com/fastwire/fastwire/go

go 1.22
