package main

import (
	"io/fs"
	"os"
)

// hostFiles resolves symbolic links on the host's file system.
var hostFiles = os.DirFS("/").(fs.ReadLinkFS)
