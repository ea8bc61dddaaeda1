// kubectl built from its Go modules (k8s.io/kubectl), for machines whose package manager has no
// recent kubectl: this is the body of k8s.io/kubernetes/cmd/kubectl/kubectl.go, which cannot be
// `go install`ed itself (its go.mod uses replace directives). Built by `./platform tools`.
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
