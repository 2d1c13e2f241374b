! What Fortran passes with other semantics than C (`use mpi`): a
! user-defined reduction in an Allreduce; a communicator keyval with copy and
! delete callbacks, its attribute set, read, copied by MPI_Comm_dup, replaced,
! deleted and freed (the callbacks count their calls and check what MPI passes
! them); the MPI-1 forms (MPI_Keyval_create, MPI_Attr_put/get/delete); the
! a datatype keyval with the predefined MPI_TYPE_NULL_COPY_FN and
! MPI_TYPE_NULL_DELETE_FN; the predefined MPI_TAG_UB read as a value; memory from MPI_Alloc_mem used in a
! Bcast; a window from MPI_Win_allocate written by MPI_Put; a shared window
! from MPI_Win_allocate_shared read through MPI_Win_shared_query's address;
! MPI_Buffer_attach, a Bsend and MPI_Buffer_detach's size; MPI_Pcontrol.
! Checks every result; prints "fcallbacks: OK". Its C twin, fcallbacks_c.c,
! makes the same MPI calls.
module fcallbacks_state
  implicit none
  integer :: copies = 0, deletes = 0, bad_cb = 0
end module fcallbacks_state

! inoutvec := max(invec, inoutvec), elementwise
subroutine vmax(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype, i
  integer :: invec(len), inoutvec(len)
  do i = 1, len
    inoutvec(i) = max(invec(i), inoutvec(i))
  end do
end subroutine vmax

! Copies the attribute as its value + 1.
subroutine copy_cb(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
  use mpi
  use fcallbacks_state
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
  logical :: flag
  copies = copies + 1
  if (extra_state /= 1000) bad_cb = bad_cb + 1
  attribute_val_out = attribute_val_in + 1
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine copy_cb

subroutine delete_cb(comm, keyval, attribute_val, extra_state, ierr)
  use mpi
  use fcallbacks_state
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
  deletes = deletes + 1
  if (extra_state /= 1000 .or. attribute_val < 42) bad_cb = bad_cb + 1
  ierr = MPI_SUCCESS
end subroutine delete_cb

! MPI-1: INTEGER values
subroutine copy1(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
  use mpi
  implicit none
  integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
  logical :: flag
  attribute_val_out = attribute_val_in
  flag = .false.
  ierr = MPI_SUCCESS
end subroutine copy1

subroutine delete1(comm, keyval, attribute_val, extra_state, ierr)
  use mpi
  use fcallbacks_state
  implicit none
  integer :: comm, keyval, attribute_val, extra_state, ierr
  deletes = deletes + 1
  ! not extra_state: MPICH 4.0 passes the attribute's value there
  if (attribute_val /= 5) bad_cb = bad_cb + 1
  ierr = MPI_SUCCESS
end subroutine delete1

program fcallbacks
  use mpi
  use fcallbacks_state
  use, intrinsic :: iso_c_binding
  implicit none
  external :: vmax, copy_cb, delete_cb, copy1, delete1
  integer :: ierr, rank, nranks, bad, k, op, keyval, kv1, tkv, dup, shm, win, swin
  integer :: left, right, ibuf(4), rbuf(4), val1, disp, bsize, dsize, recv
  integer(kind=MPI_ADDRESS_KIND) :: extra, val, got, addr, size, qsize, tag_ub
  integer(kind=MPI_ADDRESS_KIND) :: target_disp
  integer :: qdisp
  logical :: flag
  type(c_ptr) :: p
  integer, pointer :: mem(:), wmem(:), smem(:)
  integer :: bbuf(256)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  bad = 0
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)

  ! A user-defined reduction
  call MPI_Op_create(vmax, .true., op, ierr)
  do k = 1, 4
    ibuf(k) = rank * k
  end do
  call MPI_Allreduce(ibuf, rbuf, 4, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  do k = 1, 4
    if (rbuf(k) /= (nranks - 1) * k) bad = bad + 1
  end do
  call MPI_Op_free(op, ierr)
  if (op /= MPI_OP_NULL) bad = bad + 1

  ! A keyval with callbacks, its attribute on MPI_COMM_WORLD and a duplicate
  extra = 1000
  call MPI_Comm_create_keyval(copy_cb, delete_cb, keyval, extra, ierr)
  val = 42 + rank
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, val, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, got, flag, ierr)
  if (.not. flag .or. got /= 42 + rank) bad = bad + 1
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  if (copies /= 1) bad = bad + 1
  call MPI_Comm_get_attr(dup, keyval, got, flag, ierr)
  if (.not. flag .or. got /= 43 + rank) bad = bad + 1
  val = 50
  call MPI_Comm_set_attr(dup, keyval, val, ierr) ! deletes the copy first
  if (deletes /= 1) bad = bad + 1
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
  if (deletes /= 2) bad = bad + 1
  call MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, got, flag, ierr)
  if (flag) bad = bad + 1
  call MPI_Comm_free(dup, ierr)
  if (deletes /= 3) bad = bad + 1
  call MPI_Comm_free_keyval(keyval, ierr)

  ! MPI-1 attributes: INTEGER values
  val1 = 7
  call MPI_Keyval_create(copy1, delete1, kv1, val1, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, kv1, 5, ierr)
  val1 = 0
  call MPI_Attr_get(MPI_COMM_WORLD, kv1, val1, flag, ierr)
  if (.not. flag .or. val1 /= 5) bad = bad + 1
  call MPI_Attr_delete(MPI_COMM_WORLD, kv1, ierr)
  if (deletes /= 4) bad = bad + 1
  call MPI_Keyval_free(kv1, ierr)
  if (bad_cb /= 0) bad = bad + 1

  ! A datatype keyval with the predefined callbacks
  call MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tkv, extra, ierr)
  val = 9
  call MPI_Type_set_attr(MPI_INTEGER, tkv, val, ierr)
  call MPI_Type_get_attr(MPI_INTEGER, tkv, got, flag, ierr)
  if (.not. flag .or. got /= 9) bad = bad + 1
  call MPI_Type_delete_attr(MPI_INTEGER, tkv, ierr)
  call MPI_Type_free_keyval(tkv, ierr)

  ! A predefined attribute: Fortran reads its value (C, a pointer to it)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  if (.not. flag .or. tag_ub < 32767) bad = bad + 1

  ! Memory MPI allocates
  size = 64
  call MPI_Alloc_mem(size, MPI_INFO_NULL, addr, ierr)
  p = transfer(addr, p)
  call c_f_pointer(p, mem, (/ 16 /))
  mem = rank
  call MPI_Bcast(mem, 16, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (any(mem /= 0)) bad = bad + 1
  call MPI_Free_mem(mem, ierr)

  ! A window MPI allocates: each rank puts its rank into its right neighbour's
  size = 16
  disp = 4
  call MPI_Win_allocate(size, disp, MPI_INFO_NULL, MPI_COMM_WORLD, addr, win, ierr)
  p = transfer(addr, p)
  call c_f_pointer(p, wmem, (/ 4 /))
  wmem = -1
  call MPI_Win_fence(0, win, ierr)
  target_disp = 1
  call MPI_Put(rank, 1, MPI_INTEGER, right, target_disp, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  if (wmem(2) /= left .or. wmem(1) /= -1) bad = bad + 1
  call MPI_Win_free(win, ierr)

  ! A shared window: rank 0's segment read through MPI_Win_shared_query
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, shm, ierr)
  call MPI_Win_allocate_shared(size, disp, MPI_INFO_NULL, shm, addr, swin, ierr)
  p = transfer(addr, p)
  call c_f_pointer(p, smem, (/ 4 /))
  smem = 100
  call MPI_Win_fence(0, swin, ierr)
  call MPI_Win_shared_query(swin, 0, qsize, qdisp, addr, ierr)
  if (qsize /= 16 .or. qdisp /= 4) bad = bad + 1
  p = transfer(addr, p)
  call c_f_pointer(p, smem, (/ 4 /))
  if (any(smem /= 100)) bad = bad + 1
  call MPI_Win_fence(0, swin, ierr)
  call MPI_Win_free(swin, ierr)
  call MPI_Comm_free(shm, ierr)

  ! A buffered send
  bsize = 1024
  call MPI_Buffer_attach(bbuf, bsize, ierr)
  call MPI_Bsend(rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call MPI_Recv(recv, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (recv /= left) bad = bad + 1
  call MPI_Buffer_detach(bbuf, dsize, ierr)
  if (dsize /= bsize) bad = bad + 1

  call MPI_Pcontrol(1)

  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (bad == 0) then
      print '(a)', 'fcallbacks: OK'
    else
      print '(a,i0)', 'fcallbacks: FAILED ', bad
    end if
  end if
  call MPI_Finalize(ierr)
end program fcallbacks
