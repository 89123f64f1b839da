" Buffer settings for tilec's .tile kernels: '#' comments, 4-space indents.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=b:#
setlocal expandtab shiftwidth=4 softtabstop=4 tabstop=8
setlocal suffixesadd=.tile

let b:undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< tabstop< suffixesadd<"
