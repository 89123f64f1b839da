" Indentation for tilec's .tile kernels. Blocks open after a colon and close
" by dedenting, exactly as in Python, so this uses the python indent script
" that ships with Vim (and Neovim).
if exists("b:did_indent")
  finish
endif
runtime! indent/python.vim
