"""Weighted search: request -> plan -> ranking in PostgreSQL -> response.

request.py and filters.py   what clients send
plan.py                     the weight rules applied: an immutable SearchPlan
context.py                  the profiles and spaces a plan reads
store.py                    the SQL calls, by name with named arguments
response.py                 the response contract and explanations
service.py                  one search, end to end (with the low-confidence retry)
diversity.py, explain.py, space.py, purpose.py   the stages and searches built on them
"""
