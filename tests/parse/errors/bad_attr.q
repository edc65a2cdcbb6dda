{!kernel target="gpu"
!kernel_arg name=y; 42
!parallel for
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
