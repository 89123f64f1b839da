" Files ending in .tile are tilec kernels (see editors/vim/README.md).
autocmd BufNewFile,BufRead *.tile set filetype=tile
