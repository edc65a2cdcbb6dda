% system.q: Quasar's system module: printing, timing, files and images (print, printf,
%   sprintf, tic/toc, imread, imwrite, imshow) are built into OpenQuasar.
% import "system.q" finds this file in OpenQuasar's lib/ folder, so published programs that
% import it run unchanged; it defines nothing of its own yet.
