% Bitonic sort in shared memory (seed 003, section 10.8), along the rows of a matrix: here
% the gray values of the photograph, so each row of OUTPUT rises from its darkest to its
% brightest pixel. Rows need not be a power of two long (the padding is 1e37).
% Run: oq run examples/bitonic.q [INPUT [OUTPUT [SIZE]]]
% The seed's function is called `sort`; user functions shadow built-ins of the same name.
import "lib/gallery.q"

function [] = sort(x)
    function [] = __kernel__ bitsort(x : mat, n : int, blkdim : ivec2,
            blkpos : ivec2, pos : ivec2)
        k = 2
        % copy the row to the shared memory...
        s = shared(blkdim[0], n)
        for l = 0..blkdim[1]..n-1
            tid = blkpos[1] + l
            if tid < size(x,1)
                s[blkpos[0], tid] = x[pos[0], tid]
            else
                s[blkpos[0], tid] = 1e37 % maximum floating point value
            endif
        endfor
        syncthreads
        % parallel bitonic sort
        while k <= n
            % bitonic merge
            j = int(k / 2)
            while j > 0
                for l = 0..blkdim[1]..n-1
                    tid = blkpos[1] + l % thread id
                    ixj = xor(tid, j)
                    if tid < ixj
                        if and(tid, k) == 0
                            v = [blkpos[0], tid]
                            w = [blkpos[0], ixj]
                        else
                            v = [blkpos[0], ixj]
                            w = [blkpos[0], tid]
                        endif
                        if s[v] > s[w]
                            [s[v], s[w]] = [s[w], s[v]]
                        endif
                    endif
                endfor
                syncthreads
                j /= 2
            endwhile
            k *= 2
        endwhile
        % Copy back the results
        for l = 0..blkdim[1]..n-1
            tid = blkpos[1] + l
            if tid < size(x,1)
                x[pos[0], tid] = s[blkpos[0], tid]
            endif
        endfor
    endfunction
    nextpow2 = x -> 2^ceil(log2(x))
    n = nextpow2(size(x,1))
    sz = max_block_size(bitsort, [size(x,0),min(n,256),1])
    parallel_do([[size(x,0),sz[1],1],sz],x,n,bitsort)
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/bitonic.png", size_ = 0)
    g = to_gray(load_image(input, size_))
    sort(g)
    imwrite(output, g)
    print "bitonic: wrote ", output
endfunction
