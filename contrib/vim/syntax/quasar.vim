" Vim syntax file
" Language:    Quasar (OpenQuasar, .q files)
" Keywords as src/front/lex.c knows them; % comments, {! } pragmas, double-quoted strings,
" numbers with an imaginary i or j, type names and 'modifiers (vec'circular).
" Install: copy contrib/vim/syntax and contrib/vim/ftdetect into ~/.vim (or add contrib/vim
" to 'runtimepath'). Tested by contrib/test_editors.sh.
if exists("b:current_syntax")
  finish
endif

syn keyword quasarConditional if elseif else endif match with endmatch
syn keyword quasarRepeat      for endfor while endwhile repeat until
syn keyword quasarStatement   break continue return end
syn keyword quasarKeyword     function endfunction macro endmacro type endtype reduction import
syn match   quasarQualifier   "\<__\(kernel\|device\|global\|constant\)__"
syn keyword quasarType        scalar int cscalar bool string int8 uint8 int16 uint16 int32 uint32 int64
syn keyword quasarType        vec mat cube cvec cmat ccube ivec ivec2 ivec3 ivec4 vec2 vec3 vec4
syn keyword quasarType        mat2x2 mat3x3 mat4x4 thread_block kernel_function
syn match   quasarModifier    "\(\w\|\]\)\@<='\(unchecked\|checked\|clamped\|mirror\|circular\|safe\|hwconst\|hw\|const\|zero\|cyclic\)\>"
syn keyword quasarConstant    pi e Inf NaN eps true false
syn keyword quasarBuiltin     abs acos and angle asin atan atan2 ceil clamp complex conj copy cos cosh
syn keyword quasarBuiltin     cumsum exp float floor frac imag ind2pos isempty isfinite isinf isnan
syn keyword quasarBuiltin     isscalar linspace log log10 log2 max mean min mod ndims nextpow2 not
syn keyword quasarBuiltin     num2str numel ones or pos2ind prevpow2 printf prod rand randn real repmat
syn keyword quasarBuiltin     reshape round shl shr sign sin sinh size sprintf sqrt strcat sum tan tanh
syn keyword quasarBuiltin     transpose uninit xor zeros print disp assert error tic toc imread imwrite
syn keyword quasarBuiltin     imwrite16 imshow hold title parallel_do serial_do max_block_size
syn keyword quasarBuiltin     opt_block_size opt_block_cnt shared shared_zeros syncthreads
syn match   quasarNumber      "\<0[xX]\x\+\>"
syn match   quasarNumber      "\<\d\+\(\.\d*\)\=\([eE][-+]\=\d\+\)\=[ij]\=\>"
syn match   quasarNumber      "\(\w\|\.\)\@<!\.\d\+\([eE][-+]\=\d\+\)\=[ij]\=\>"
syn match   quasarMacroVar    "\$\h\w*"
syn match   quasarEscape      contained "\\."
syn region  quasarString      start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=quasarEscape oneline
syn region  quasarPragma      start="{!" end="}" contains=quasarString,quasarNumber
syn match   quasarComment     "%.*$" contains=@Spell
syn match   quasarFuncName    "\(\<function\>\s*\(\(\[[^\]]*\]\|\h\w*\)\s*=\s*\)\=\)\@<=\h\w*"

hi def link quasarConditional Conditional
hi def link quasarRepeat      Repeat
hi def link quasarStatement   Statement
hi def link quasarKeyword     Keyword
hi def link quasarQualifier   StorageClass
hi def link quasarType        Type
hi def link quasarModifier    StorageClass
hi def link quasarConstant    Constant
hi def link quasarBuiltin     Function
hi def link quasarNumber      Number
hi def link quasarMacroVar    PreProc
hi def link quasarEscape      SpecialChar
hi def link quasarString      String
hi def link quasarPragma      PreProc
hi def link quasarComment     Comment
hi def link quasarFuncName    Function

let b:current_syntax = "quasar"
