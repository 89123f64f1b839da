" Vim syntax file
" Language:   tile, the kernel language of tilec (Python syntax, Triton's model)
" Filenames:  *.tile
" Source:     editors/vim in the tilec repository
"
" Highlights keywords, decorators (@kernel, @triton.jit, @triton.autotune(...)),
" function names after 'def', tile types in annotations (*fp16, fp32, i32,
" tl.float16, constexpr, tl.constexpr), the tl. / triton.language. builtins,
" numbers, strings with their escapes, and comments.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

" --- Keywords ---------------------------------------------------------------
syntax keyword tileConditional if elif else
syntax keyword tileRepeat      for while
syntax keyword tileStatement   return pass break continue
syntax keyword tileStatement   assert del yield async await
syntax keyword tileException   try except finally raise with
syntax keyword tileOperator    and or not is in
syntax keyword tileBoolean     True False
syntax keyword tileNone        None
syntax keyword tileInclude     import from as
syntax keyword tileStorage     global nonlocal
syntax keyword tileLambda      lambda
syntax keyword tileDefine      def   nextgroup=tileFunction skipwhite
syntax keyword tileDefine      class nextgroup=tileClass    skipwhite
syntax match   tileFunction    "\h\w*" contained
syntax match   tileClass       "\h\w*" contained

" --- Comments ---------------------------------------------------------------
syntax keyword tileTodo        TODO FIXME XXX NOTE contained
syntax match   tileComment     "#.*$" contains=tileTodo,@Spell

" --- Operators (defined before the rules that reuse '*' and '@') ------------
syntax match   tileOperatorSym "\%(\*\*\|//\|<<\|>>\|[-+*/%@&|^<>=!]\)=\=\|[~]\|->\|:="

" --- Numbers ----------------------------------------------------------------
" Later rules win where two start at the same column, so floats come after
" integers (1.5 is a float, not the integer 1 and '.5').
syntax match   tileNumber      "\<\d\%(_\=\d\)*\>"
syntax match   tileNumber      "\<0[xX]\%(_\=\x\)\+\>"
syntax match   tileNumber      "\<0[bB]\%(_\=[01]\)\+\>"
syntax match   tileNumber      "\<0[oO]\%(_\=\o\)\+\>"
syntax match   tileFloat       "\<\d\%(_\=\d\)*\.\%(\d\%(_\=\d\)*\)\=\%([eE][-+]\=\d\%(_\=\d\)*\)\=\%(\w\)\@!"
syntax match   tileFloat       "\%([[:alnum:]_.]\)\@1<!\.\d\%(_\=\d\)*\%([eE][-+]\=\d\%(_\=\d\)*\)\=\>"
syntax match   tileFloat       "\<\d\%(_\=\d\)*[eE][-+]\=\d\%(_\=\d\)*\>"

" --- The tl. namespace, triton., libdevice. and Python builtins ---------------
syntax match   tileBuiltinFunc "\<\%(tl\|triton\.language\)\%(\.\h\w*\)\+\>\%(\s\+import\>\)\@!"
syntax match   tileTritonFunc  "\<triton\.\%(language\>\)\@!\h\w*"
syntax match   tileLibdevice   "\<libdevice\.\h\w*"
syntax match   tileBuiltin     "\.\@1<!\<\%(range\|min\|max\|len\|abs\|print\|int\|float\|bool\|str\|tuple\|list\|dict\|zip\|enumerate\|isinstance\|getattr\|hasattr\|divmod\|round\|sum\|any\|all\|sorted\|reversed\|type\)\>\ze\s*("
syntax match   tileDtype       "\<\%(tl\|triton\.language\)\.\%(int1\|u\=int\%(8\|16\|32\|64\)\|float\%(16\|32\|64\)\|bfloat16\|float8e4nv\|float8e5\|float8e4b15\|float8e4b8\|float8e5b16\|float8_e4m3fn\|float8_e5m2\|[iu]\%(1\|8\|16\|32\|64\)\|fp\%(16\|32\|64\)\|bf16\|fp8e4nv\|fp8e5\|bool\|void\|tensor\|dtype\|pointer_type\|block_type\)\>"
syntax match   tileConstexpr   "\.\@1<!\<\%(\%(tl\|triton\.language\)\.\)\=constexpr\>"

" --- Tile types in annotations: after ':' or '->' -----------------------------
" Bare dtype names (fp16, i32) are types only here, so a variable named i8 or
" x_fp16 elsewhere stays plain.
syntax match   tilePointer     "\%(\%(:\|->\)\s*\)\@<=\*\ze\s*\h"
syntax match   tileType        "\%(\%(:\|->\)\s*\%(\*\s*\)\=\)\@<=\%(\%(tl\|triton\.language\)\.\)\=\%(int1\|u\=int\%(8\|16\|32\|64\)\|float\%(16\|32\|64\)\|bfloat16\|float8e4nv\|float8e5\|float8_e4m3fn\|float8_e5m2\|[iu]\%(1\|8\|16\|32\|64\)\|fp\%(16\|32\|64\)\|bf16\|fp8e4nv\|fp8e5\|bool\|int\|float\)\>\%(\s*(\)\@!"

" --- Decorators: '@' at the start of a line; elsewhere '@' is matmul ---------
syntax match   tileDecorator     "^\s*\zs@" nextgroup=tileDecoratorName skipwhite
syntax match   tileDecoratorName "\h\w*\%(\s*\.\s*\h\w*\)*" contained

" --- Strings ----------------------------------------------------------------
" Escapes in ordinary strings; raw strings (r"", rb"", br"", rf"") have none.
syntax match   tileEscape      +\\[\\'"abfnrtv]+ contained
syntax match   tileEscape      "\\\o\{1,3}" contained
syntax match   tileEscape      "\\x\x\{2}" contained
syntax match   tileEscape      "\\u\x\{4}" contained
syntax match   tileEscape      "\\U\x\{8}" contained
syntax match   tileEscape      "\\N{[^}]\+}" contained
syntax match   tileEscape      "\\$" contained

" One-line strings first, so that the triple-quoted rules below win where both
" start at the same quote.
syntax region  tileString    matchgroup=tileQuote start=+\%(\<[bBfFuU]\)\=\z(['"]\)+ skip=+\\\\\|\\\z1\|\\$+ end=+\z1+ end=+$+ keepend contains=tileEscape,@Spell
syntax region  tileRawString matchgroup=tileQuote start=+\<\%([rR][bBfF]\=\|[bBfF][rR]\)\z(['"]\)+ skip=+\\\\\|\\\z1\|\\$+ end=+\z1+ end=+$+ keepend contains=@Spell
syntax region  tileString    matchgroup=tileQuote start=+\%(\<[bBfFuU]\)\=\z('''\|"""\)+ end=+\z1+ keepend contains=tileEscape,@Spell
syntax region  tileRawString matchgroup=tileQuote start=+\<\%([rR][bBfF]\=\|[bBfF][rR]\)\z('''\|"""\)+ end=+\z1+ keepend contains=@Spell

" Kernel files are short; parsing from the top keeps triple-quoted strings
" right wherever the window starts.
syntax sync fromstart

" --- Colours ----------------------------------------------------------------
highlight default link tileConditional   Conditional
highlight default link tileRepeat        Repeat
highlight default link tileStatement     Statement
highlight default link tileException     Exception
highlight default link tileOperator      Operator
highlight default link tileOperatorSym   Operator
highlight default link tileBoolean       Boolean
highlight default link tileNone          Constant
highlight default link tileInclude       Include
highlight default link tileStorage       StorageClass
highlight default link tileLambda        Statement
highlight default link tileDefine        Statement
highlight default link tileFunction      Function
highlight default link tileClass         Type
highlight default link tileTodo          Todo
highlight default link tileComment       Comment
highlight default link tileNumber        Number
highlight default link tileFloat         Float
highlight default link tileBuiltinFunc   Function
highlight default link tileTritonFunc    Function
highlight default link tileLibdevice     Function
highlight default link tileBuiltin       Function
highlight default link tileDtype         Type
highlight default link tileConstexpr     StorageClass
highlight default link tilePointer       Type
highlight default link tileType          Type
highlight default link tileDecorator     PreProc
highlight default link tileDecoratorName PreProc
highlight default link tileEscape        SpecialChar
highlight default link tileString        String
highlight default link tileRawString     String
highlight default link tileQuote         String

let b:current_syntax = "tile"

let &cpo = s:cpo_save
unlet s:cpo_save
