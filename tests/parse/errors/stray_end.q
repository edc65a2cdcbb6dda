for i = 0..2
    x = i
end
end
endwhile
endfor
endfunction
until x > 1
elseif y
| 1 -> z = 2
w = )
