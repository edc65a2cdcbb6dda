for i = 0..2
    x = i
end
end
endwhile
