module github.com/udtc/udtc/golden

go 1.26.8
