import TableModel
