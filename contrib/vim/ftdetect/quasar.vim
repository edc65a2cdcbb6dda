" Quasar (.q) files of OpenQuasar; `set filetype` (not setf) wins over other uses of .q.
autocmd BufNewFile,BufRead *.q set filetype=quasar
