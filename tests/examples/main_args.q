% `oq run main_args.q ARGS...` (tests/run.sh, cli): program arguments are main()'s
% arguments, numbers where the text is one (converted to the parameter's type), strings
% for `string` parameters; missing ones take the defaults.
function [] = main(name : string = "x", n : int = 3, s = 0.5, t = "x")
    print name, " ", n, " ", s, " ", t
endfunction
